// request-body.ts: bounds the memory request bodies take: admission before a byte is read, a byte limit while reading.
//
// An endpoint that reads bodies gets an Admission with `capacity` slots and reads each body with a `limit`:
//
//   const answer = await admission.run(async () => {
//     const body = await readBody(request, limit);   // undefined past the limit: 413
//     return use(body);                              // the slot is held while the bytes are
//   });
//   return answer ?? tooBusy();                      // every slot taken: 429, the body untouched
//
// The bodies it holds then take at most `capacity × limit` bytes (plus, per body being read, the one
// network chunk that crosses the limit), however many uploads arrive at once: a request refused for want
// of a slot is answered before its body is read, and a body over its limit is cancelled as soon as the
// count passes it.

export type Bytes = Uint8Array<ArrayBuffer>;

export interface Admission {
  /** Runs `work` holding one slot until it settles; undefined, without running it, when every slot is taken. */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
}

export function createAdmission(capacity: number): Admission {
  let inUse = 0;
  return {
    async run(work) {
      if (inUse >= capacity) return undefined;
      inUse++;
      try {
        return await work();
      } finally {
        inUse--;
      }
    },
  };
}

/**
 * The whole body, or undefined once it passes `limit` bytes (the rest is then cancelled unread). Throws when
 * the stream fails (a visitor who went away mid-upload).
 *
 * A request's Content-Length is trusted to refuse early and to read in one go: from a socket, Bun's parser
 * frames the body by it. A fetch response's Content-Length counts the bytes before decoding (a few KB of
 * brotli can inflate to a gigabyte), so a response is always counted chunk by chunk, after decoding.
 */
export async function readBody(message: Request | Response, limit: number): Promise<Bytes | undefined> {
  const declared = message.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return undefined;
  if (declared !== null && message instanceof Request) {
    const bytes = await message.bytes();
    // An in-process Request (app.handle) can carry a Content-Length its body does not keep to.
    return bytes.byteLength > limit ? undefined : bytes;
  }
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
    chunks.push(value);
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
