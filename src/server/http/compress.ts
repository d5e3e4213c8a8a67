// compress.ts: compresses pages and page data by Accept-Encoding, flushing every chunk as it comes.
import zlib from "node:zlib";
import { PAGE_DATA_TYPE } from "../../runtime/page-payload.ts";
import { pickEncoding } from "./accept-encoding.ts";
import { GZIP, openStreamEncoder, type Coding, type StreamEncoder } from "./stream-encoders.ts";

/** Best first: brotli is smaller than gzip on the pages at these levels (bench/README.md, figures the source carried). */
const CODINGS = ["br", "gzip"] as const satisfies readonly Coding[];

/**
 * Under this a body gains less than its encoder's overhead (a TCP segment carries it either way). Only
 * bodies whose length is known up front are measured; a streamed body is compressed whatever its size.
 */
const MIN_COMPRESS_BYTES = 1024;

const COMPRESSIBLE = ["text/html", PAGE_DATA_TYPE];

/**
 * A body compressed whole: brotli at quality 4 (not the default 11) and gzip at 6, since every response is
 * compressed as it is rendered, so the encoder's time is spent on every request (bench/README.md, figures the
 * source carried: compression). (A streamed body's encoder: stream-encoders.ts.)
 */
const BROTLI = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
};

/** Reads no body: asking a Response made from a string for its body turns the string into a stream. */
function isCompressible(response: Response): boolean {
  if (response.status === 204 || response.status === 304) return false;
  if (response.headers.has("content-encoding")) return false;
  const type = response.headers.get("content-type") ?? "";
  if (!COMPRESSIBLE.some((t) => type.startsWith(t))) return false;
  const length = response.headers.get("content-length");
  return length === null || Number(length) >= MIN_COMPRESS_BYTES;
}

/**
 * A body that has all arrived by the time its first bytes are read (a page with nothing left to stream), up to
 * this size, is compressed in one synchronous call, cheaper than zlib's stream with its thread, its Node stream
 * and its events per chunk (bench/README.md, figures the source carried: compression). A larger body goes
 * through the stream, so that no single call holds the event loop for long.
 */
export const ONE_SHOT_MAX_BYTES = 256 * 1024;

function compressAll(bytes: Uint8Array, coding: Coding): Uint8Array<ArrayBuffer> {
  return coding === "gzip" ? zlib.gzipSync(bytes, GZIP) : zlib.brotliCompressSync(bytes, { params: BROTLI });
}

const NOT_YET = Symbol("not yet");
const notYet = Promise.resolve(NOT_YET);

type Reader = ReadableStreamDefaultReader<Uint8Array>;

interface Ready {
  chunks: Uint8Array[];
  bytes: number;
  /** When the body had not ended: the read started while asking, and the reader the stream goes on from. */
  rest?: { next: ReturnType<Reader["read"]>; reader: Reader };
}

/**
 * The first bytes (waited for), then every chunk already there, without waiting: a read that has not settled
 * by the time an already settled promise has loses the race and is kept for later. A body of declared length
 * is all there: read whole, since its last read may settle a turn late and lose that race.
 */
async function readReady(response: Response): Promise<Ready> {
  const length = Number(response.headers.get("content-length") ?? NaN);
  if (length <= ONE_SHOT_MAX_BYTES) {
    const bytes = await response.bytes();
    return { chunks: [bytes], bytes: bytes.byteLength };
  }
  const reader = response.body!.getReader();
  const ready: Ready = { chunks: [], bytes: 0 };
  let result = await reader.read();
  while (!result.done) {
    ready.chunks.push(result.value);
    ready.bytes += result.value.byteLength;
    const next = reader.read();
    const now = ready.bytes > ONE_SHOT_MAX_BYTES ? NOT_YET : await Promise.race([next, notYet]);
    if (now === NOT_YET) return { ...ready, rest: { next, reader } };
    result = now;
  }
  return ready;
}

function joined({ chunks, bytes }: Ready): Uint8Array {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
}

/**
 * The body from its first bytes on, through the encoder or as it is. The encoder is released as the body ends,
 * fails or is cancelled (its request's abort releases it too: stream-encoders.ts).
 */
function relay(first: Uint8Array, { next, reader }: NonNullable<Ready["rest"]>, encoder?: StreamEncoder) {
  const encode = encoder ? encoder.encode : async (chunk: Uint8Array | undefined) => chunk ?? EMPTY;
  let pending: Uint8Array | undefined = first;
  let read: typeof next | undefined = next;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (pending) {
          controller.enqueue(await encode(pending));
          pending = undefined;
          return;
        }
        const { done, value } = await (read ?? reader.read());
        read = undefined;
        const out = await encode(done ? undefined : value);
        if (out.byteLength > 0) controller.enqueue(out);
        if (done) {
          encoder?.release();
          controller.close();
        }
      } catch (error) {
        encoder?.release();
        reader.cancel(error).catch(() => {});
        throw error;
      }
    },
    cancel(reason) {
      encoder?.release();
      return reader.cancel(reason);
    },
  });
}

const EMPTY = new Uint8Array(0);

/** A response with another body and `headers`; its status kept. */
const withBody = (response: Response, body: BodyInit | null, headers: Headers) =>
  new Response(body, { status: response.status, headers });

/**
 * The response as the client accepts it best: its body compressed, or as it is. Waits for the body's first
 * bytes: a body that has all arrived by then is compressed whole (with its length); one still streaming gets
 * one of the few streaming encoders, or goes as it is when none is free or its visitor has already gone.
 */
export async function compressed(request: Request, response: Response): Promise<Response> {
  if (request.method === "HEAD" || !isCompressible(response)) return response;
  // Whatever is picked, a cache must key this URL's responses on the header.
  const vary = response.headers.get("vary");
  response.headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  const coding = pickEncoding(request.headers.get("accept-encoding"), CODINGS);
  if (!coding || !response.body) return response;
  let ready: Ready;
  try {
    ready = await readReady(response);
  } catch (error) {
    // The body failed before its first bytes: it fails the same way for the client, its headers as they were.
    return withBody(response, new ReadableStream({ start: (controller) => controller.error(error) }), response.headers);
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  if (!ready.rest) {
    if (ready.bytes === 0) return withBody(response, null, headers);
    headers.set("content-encoding", coding);
    return withBody(response, compressAll(joined(ready), coding), headers);
  }
  const encoder = openStreamEncoder(coding, request.signal);
  if (encoder) headers.set("content-encoding", coding);
  return withBody(response, relay(joined(ready), ready.rest, encoder), headers);
}
