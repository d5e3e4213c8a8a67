// codec.ts: the browser's half of the codec (the server's is wire.ts): a value sent in devalue's form made into
// the value again. A chunk of its own, off the critical path: a page whose data JSON carries never waits for it.
import { unflatten } from "devalue";
import { PROTO_KEY_REVIVERS } from "../own-proto-key.ts";

/** A value as the server sent it and JSON.parse read it: the codec's form is an array, JSON's an object. */
export function revive(sent: unknown): unknown {
  return Array.isArray(sent) ? unflatten(sent, PROTO_KEY_REVIVERS) : sent;
}
