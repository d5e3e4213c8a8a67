// Instant.server.ts: streamed values that have settled before the shell renders, as a cache hit or a
// validation that fails at once would: one resolved, one rejected.

export function instantLoader() {
  return {
    ready: Promise.resolve("ready"),
    failed: Promise.reject<string>(new Error("Example failure settled before the shell (/examples/instant)")),
  };
}
