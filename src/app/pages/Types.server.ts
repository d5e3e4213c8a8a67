// Types.server.ts: a loader whose data JSON could not carry: a Date, a Set, a Map, a BigInt, a URL and an
// undefined key. They reach the page as what they are, on the document and on page data alike.

export function typesLoader() {
  return {
    when: new Date(0),
    tags: new Set(["a"]),
    counts: new Map([["x", 1]]),
    big: 10n,
    link: new URL("https://example.com/a"),
    missing: undefined,
  };
}
