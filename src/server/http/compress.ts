// compress.ts: compresses pages and page data by Accept-Encoding, flushing every chunk as it comes.
import zlib from "node:zlib";
import { PAGE_DATA_TYPE } from "../../runtime/page-payload.ts";
import { pickEncoding } from "./accept-encoding.ts";

/** Best first: brotli is ~15 % smaller than gzip on the pages at these levels. */
const CODINGS = ["br", "gzip"] as const;
type Coding = (typeof CODINGS)[number];

/**
 * Under this a body gains less than its encoder's overhead (a TCP segment carries it either way). Only
 * bodies whose length is known up front are measured; a streamed body is compressed whatever its size.
 */
export const MIN_COMPRESS_BYTES = 1024;

const COMPRESSIBLE = ["text/html", PAGE_DATA_TYPE];

/**
 * Brotli at quality 4 (not the default 11) and gzip at 6: every response is compressed as it is rendered,
 * so the encoder's time is spent on every request; these levels cost ~110 and ~70 µs on a 10 KB page.
 */
const GZIP = { level: 6 };
const BROTLI = { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT };

/**
 * For a body that streams: every write flushes (the `flush` option), so the browser can decode (and React's
 * scripts run) each chunk now, not when the encoder's window fills up; a flush of its own after each write
 * would cost a second trip to zlib's thread per chunk. CompressionStream has no flush at all, so it would hold
 * a streamed page's shell until the last section is in.
 */
function encoder(coding: Coding): zlib.BrotliCompress | zlib.Gzip {
  if (coding === "gzip") return zlib.createGzip({ ...GZIP, flush: zlib.constants.Z_SYNC_FLUSH });
  return zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: BROTLI });
}

/** Reads no body: asking a Response made from a string for its body turns the string into a stream. */
function isCompressible(response: Response): boolean {
  if (response.status === 204 || response.status === 304) return false;
  if (response.headers.has("content-encoding")) return false;
  const type = response.headers.get("content-type") ?? "";
  if (!COMPRESSIBLE.some((t) => type.startsWith(t))) return false;
  const length = response.headers.get("content-length");
  return length === null || Number(length) >= MIN_COMPRESS_BYTES;
}

/** Everything the encoder has for `chunk` (all of it on `end`), as one piece. */
function encode(z: zlib.BrotliCompress | zlib.Gzip, chunk: Uint8Array | undefined): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const collect = (data: Buffer) => out.push(data);
    const done = () => {
      z.off("data", collect);
      z.off("error", reject);
      resolve(out.length === 1 ? out[0]! : Buffer.concat(out));
    };
    z.on("data", collect);
    z.once("error", reject);
    if (chunk === undefined) {
      z.once("end", done);
      z.end();
      return;
    }
    // The write's callback runs once its (flushed) output has been pushed as data.
    z.write(chunk, (error) => (error ? reject(error) : done()));
  });
}

/**
 * A body that has all arrived by the time its first bytes are read (a page with nothing left to stream), up to
 * this size, is compressed in one synchronous call: a third of the CPU of zlib's stream for a 10 KB page (its
 * thread, its Node stream and events per chunk). A larger body goes through the stream, so that no single call
 * holds the event loop for long.
 */
export const ONE_SHOT_MAX_BYTES = 256 * 1024;

function compressAll(bytes: Uint8Array, coding: Coding): Uint8Array {
  return coding === "gzip" ? zlib.gzipSync(bytes, GZIP) : zlib.brotliCompressSync(bytes, { params: BROTLI });
}

const NOT_YET = Symbol("not yet");
const notYet = Promise.resolve(NOT_YET);

interface Ready {
  chunks: Uint8Array[];
  bytes: number;
  /** The read started while asking, when the body had not ended: the stream goes on from it. */
  next?: ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>;
}

/**
 * The first bytes (waited for), then every chunk already there, without waiting: a read that has not settled
 * by the time an already settled promise has loses the race and is kept for later.
 */
async function readReady(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Ready> {
  const ready: Ready = { chunks: [], bytes: 0 };
  let result = await reader.read();
  while (!result.done) {
    ready.chunks.push(result.value);
    ready.bytes += result.value.byteLength;
    const next = reader.read();
    const now = ready.bytes > ONE_SHOT_MAX_BYTES ? NOT_YET : await Promise.race([next, notYet]);
    if (now === NOT_YET) return { ...ready, next };
    result = now;
  }
  return ready;
}

function joined({ chunks, bytes }: Ready): Uint8Array {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
}

function encodeStream(body: ReadableStream<Uint8Array>, coding: Coding): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let z: zlib.BrotliCompress | zlib.Gzip | undefined;
  let next: Ready["next"];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!z) {
        const ready = await readReady(reader);
        if (!ready.next) {
          if (ready.bytes > 0) controller.enqueue(compressAll(joined(ready), coding));
          controller.close();
          return;
        }
        z = encoder(coding);
        next = ready.next;
        controller.enqueue(await encode(z, joined(ready)));
        return;
      }
      const { done, value } = await (next ?? reader.read());
      next = undefined;
      const out = await encode(z, done ? undefined : value);
      if (out.byteLength > 0) controller.enqueue(out);
      if (done) controller.close();
    },
    cancel(reason) {
      z?.destroy();
      return reader.cancel(reason);
    },
  });
}

/** The response as the client accepts it best: its body compressed, or as it is. */
export function compressed(request: Request, response: Response): Response {
  if (request.method === "HEAD" || !isCompressible(response)) return response;
  // Whatever is picked, a cache must key this URL's answers on the header.
  const vary = response.headers.get("vary");
  response.headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  const coding = pickEncoding(request.headers.get("accept-encoding"), CODINGS);
  if (!coding || !response.body) return response;
  const headers = new Headers(response.headers);
  headers.set("content-encoding", coding);
  headers.delete("content-length");
  return new Response(encodeStream(response.body!, coding), { status: response.status, headers });
}
