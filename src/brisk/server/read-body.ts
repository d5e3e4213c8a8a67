// read-body.ts: a request's or response's whole body as bytes, never holding more than a limit.
//
// readBody(message, limit) resolves with the bytes, or undefined once the body is larger than `limit`:
// a declared Content-Length past the limit answers at once without reading. One within it is read in one
// go: on a socket Bun frames the body by that header, so no more than it declares can arrive (and the
// count is checked again after). Without one (chunked), bytes are counted as they arrive and the stream
// is cancelled the moment the count passes the limit. It rejects when the stream itself fails (a client
// that disconnects mid-body).

export type Bytes = Uint8Array<ArrayBuffer>;

export async function readBody(message: Request | Response, limit: number): Promise<Bytes | undefined> {
  const declared = message.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return undefined;
  if (!message.body) return new Uint8Array(0);
  if (declared !== null) {
    // A tenth of a small form's cost to read, against the stream reader below. An in-process Request
    // (app.handle) may understate its length; it is then read whole before it is refused, which only code
    // in the same process can make happen.
    const bytes = await message.bytes();
    return bytes.byteLength > limit ? undefined : bytes;
  }
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
