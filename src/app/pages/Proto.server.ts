// Proto.server.ts: data with a `__proto__` key, as parsed JSON from a visitor or a store can have: an ordinary
// key, never the object's prototype, on the server and in the browser alike.

export function protoLoader() {
  return { parsed: JSON.parse('{"__proto__":{"x":1},"a":1}') as Record<string, unknown> };
}
