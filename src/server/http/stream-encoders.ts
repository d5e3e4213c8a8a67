// stream-encoders.ts: the encoders of streamed responses: few at once, small, each closed the moment its response ends.
import zlib from "node:zlib";

export type Coding = "br" | "gzip";

/**
 * Encoders alive at once, past which a streamed response goes as it is (identity). Each lives until its response
 * has ended or its visitor has gone, and under load Bun tells of a closed connection seconds late: visitors that
 * leave at the first bytes and come straight back would otherwise hold thousands (bench/README.md, streamed
 * answers abandoned at their first bytes). A response that has all arrived by its first read needs none.
 */
export const MAX_STREAM_ENCODERS = 64;

/**
 * Brotli at quality 1 for a streamed body: far less native memory than quality 4 for somewhat more bytes on a
 * streamed page, whose every chunk is flushed anyway; gzip's memory hardly moves with its level or window, so
 * it keeps its level (bench/README.md, streamed answers abandoned at their first bytes).
 */
const STREAM_BROTLI = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
};
export const GZIP = { level: 6 };

let live = 0;

/** How many streaming encoders are alive now (tests read it; nothing else depends on it). */
export function liveStreamEncoders(): number {
  return live;
}

export interface StreamEncoder {
  /** Everything the encoder has for `chunk` (all it has left on `undefined`, the end), as one piece. */
  encode(chunk: Uint8Array | undefined): Promise<Uint8Array>;
  /** Frees the encoder's native memory now; later calls do nothing. */
  release(): void;
}

/**
 * Every write flushes (the `flush` option), so the browser can decode (and React's scripts run) each chunk now,
 * not when the encoder's window fills up; a flush of its own after each write would cost a second trip to
 * zlib's thread per chunk. CompressionStream has no flush at all, so it would hold a streamed page's shell until
 * the last section is in.
 */
function create(coding: Coding): zlib.BrotliCompress | zlib.Gzip {
  if (coding === "gzip") return zlib.createGzip({ ...GZIP, flush: zlib.constants.Z_SYNC_FLUSH });
  return zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: STREAM_BROTLI });
}

/**
 * An encoder for the response to a request, or none: when the request is already aborted or `MAX_STREAM_ENCODERS`
 * are alive. Its abort releases it at once (destroy frees the native state then, not at a later collection).
 */
export function openStreamEncoder(coding: Coding, signal: AbortSignal): StreamEncoder | undefined {
  if (signal.aborted || live >= MAX_STREAM_ENCODERS) return undefined;
  live++;
  const z = create(coding);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    live--;
    signal.removeEventListener("abort", release);
    z.destroy();
  };
  signal.addEventListener("abort", release);
  return { encode: (chunk) => encode(z, chunk), release };
}

function encode(z: zlib.BrotliCompress | zlib.Gzip, chunk: Uint8Array | undefined): Promise<Uint8Array> {
  if (z.destroyed) return Promise.reject(new Error("the response's encoder was released"));
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const collect = (data: Buffer) => out.push(data);
    const settle = (error?: Error) => {
      z.off("data", collect);
      z.off("error", settle);
      z.off("close", released);
      z.off("end", ended);
      if (error) reject(error);
      else resolve(out.length === 1 ? out[0]! : Buffer.concat(out));
    };
    // Released while writing (its request aborted): a destroyed stream never ends, so this settles it.
    const released = () => settle(new Error("the response's encoder was released"));
    const ended = () => settle();
    z.on("data", collect);
    z.once("error", settle);
    z.once("close", released);
    if (chunk === undefined) {
      z.once("end", ended);
      z.end();
      return;
    }
    // The write's callback runs once its (flushed) output has been pushed as data.
    z.write(chunk, (error) => settle(error ?? undefined));
  });
}
