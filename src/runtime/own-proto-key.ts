// own-proto-key.ts: the codec's way with an object that has its own `__proto__` key. devalue refuses one
// (its parse would make the key a prototype); the wire carries it as its entries under a type of ours, and
// the browser makes it again with Object.fromEntries, which defines `__proto__` as an ordinary key.

const TYPE = "OwnProto";

function hasOwnProtoKey(value: unknown): value is object {
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, "__proto__")) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** For devalue's stringify, on the server. */
export const PROTO_KEY_REDUCERS = { [TYPE]: (value: unknown) => hasOwnProtoKey(value) && Object.entries(value) };

/** For devalue's parse, in the browser. */
export const PROTO_KEY_REVIVERS = { [TYPE]: (entries: Array<[string, unknown]>) => Object.fromEntries(entries) };
