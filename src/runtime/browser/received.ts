// received.ts: a value as the server sent it (wire.ts) and JSON.parse read it: JSON's (an object) is the value
// itself; the codec's form (an array) needs the codec, a chunk a page waits for only when a value needs it.
import { retryingImport } from "../retry-import.ts";

const loadCodec = retryingImport(() => import("./codec.ts"));

/** The value, at once when it came as JSON; else a promise of it, which rejects if the codec cannot load. */
export function received<T>(sent: unknown): T | Promise<T> {
  return Array.isArray(sent) ? loadCodec().then((codec) => codec.revive(sent) as T) : (sent as T);
}

/** Fetches the codec ahead of the navigation that may need it; a failure is tried again by that one. */
export function preloadCodec(): void {
  loadCodec().catch(() => {});
}
