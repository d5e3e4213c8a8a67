// raw-http.ts (test support): one HTTP/1.1 exchange over a bare TCP socket, for requests fetch would
// refuse or rewrite (raw bytes in the target, odd Host headers, Content-Length that lies).

export interface RawResponse {
  /** Undefined when nothing (or no status line) came back before the socket closed or time ran out. */
  status: number | undefined;
  /** Lower-cased header names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  /** The body with chunked framing removed. */
  body: Uint8Array;
  /** False when we gave up waiting (a server waiting for body bytes that never come is allowed to). */
  closed: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The bytes of `chunks`, one after another, in a fresh buffer. */
export function concat(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  return Bun.concatArrayBuffers([...chunks], Infinity, true);
}

function dechunk(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.byteLength) {
    const lineEnd = bytes.indexOf(10, at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(decoder.decode(bytes.subarray(at, lineEnd)), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(lineEnd + 1, lineEnd + 1 + size));
    at = lineEnd + 1 + size + 2;
  }
  return concat(parts);
}

/**
 * Splits a raw response; the server is asked to close after one, so everything after the head is its
 * body. Interim 1xx heads (`Expect: 100-continue`) are skipped.
 */
export function parseRawResponse(raw: Uint8Array, closed: boolean): RawResponse {
  const headEnd = Buffer.from(raw).indexOf("\r\n\r\n");
  if (headEnd >= 0 && /^HTTP\/1\.[01] 1\d\d/.test(decoder.decode(raw.subarray(0, 12)))) {
    return parseRawResponse(raw.subarray(headEnd + 4), closed);
  }
  const head = decoder.decode(headEnd < 0 ? raw : raw.subarray(0, headEnd));
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = headEnd < 0 ? new Uint8Array(0) : raw.subarray(headEnd + 4);
  const body = headers["transfer-encoding"]?.toLowerCase() === "chunked" ? dechunk(rest) : rest;
  return { status: status === undefined ? undefined : Number(status), headers, body, closed };
}

/**
 * Writes `request` as is and reads until the server closes the connection, or `timeoutMs` passes
 * (then the socket is closed by us and `closed` is false).
 */
export async function rawExchange(port: number, request: string | Uint8Array, timeoutMs = 5_000): Promise<RawResponse> {
  const bytes = typeof request === "string" ? encoder.encode(request) : request;
  const chunks: Uint8Array[] = [];
  let pending = bytes;
  const { promise: ended, resolve: end } = Promise.withResolvers<boolean>();
  const flush = (socket: { write(b: Uint8Array): number }) => {
    // A write can be partial (long targets and bodies); drain() calls back for the rest.
    const written = socket.write(pending);
    pending = pending.subarray(Math.max(0, written));
  };
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      open: flush,
      drain: flush,
      data: (_, chunk) => void chunks.push(new Uint8Array(chunk)),
      close: () => end(true),
      end: () => end(true),
      error: () => end(true),
    },
  });
  const timer = setTimeout(() => end(false), timeoutMs);
  const closed = await ended;
  clearTimeout(timer);
  socket.end();
  return parseRawResponse(concat(chunks), closed);
}
