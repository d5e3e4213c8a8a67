// read-body.ts: a request's or response's whole body as bytes, never holding more than a limit.
//
// readBody(message, limit) resolves with the bytes, or undefined once the body is larger than `limit`:
// a declared Content-Length past the limit answers at once without reading, and otherwise bytes are
// counted as they arrive and the stream is cancelled the moment the count passes the limit (an
// in-process Request keeps whatever Content-Length it was given, so the header alone is not trusted).
// It rejects when the stream itself fails (a client that disconnects mid-body).

export type Bytes = Uint8Array<ArrayBuffer>;

export async function readBody(message: Request | Response, limit: number): Promise<Bytes | undefined> {
  const declared = message.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return undefined;
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  const chunks: Bytes[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value as Bytes);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
