// responses.ts: the short responses no cache keeps, in text or JSON: refusals and failures, and the health check;
// and the one byte type the server's response bodies are made of.

/**
 * A Uint8Array over a plain ArrayBuffer, which Response, Bun.file and zlib take without a copy (a
 * SharedArrayBuffer-backed view they would not).
 */
export type Bytes = Uint8Array<ArrayBuffer>;

export function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** What a 500 says, in JSON and in text alike: the digest and the request id say the rest. */
export const INTERNAL_SERVER_ERROR = "internal server error";

/** The body of every JSON failure: what went wrong, plus what the status needs (digest, fields). */
export function jsonError(
  status: number,
  error: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return Response.json({ error, ...extra }, { status, headers: { "cache-control": "no-store", ...headers } });
}
