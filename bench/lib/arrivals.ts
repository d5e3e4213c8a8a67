// arrivals.ts: counts what reaches the fake ingest, per ingest path, so a tunnel's 2xx answers can be
// checked against what arrived (Brisk and the reference forward to different project paths).
import type { FakeIngest } from "brisk/test";

/**
 * The fake ingest keeps every request; at thousands a second that is gigabytes, so this drains its
 * list every 50 ms and keeps counts: bodies identical to `envelope`, per path.
 */
export function countArrivals(ingest: FakeIngest, envelope: string) {
  const matched = new Map<string, number>();
  const drain = () => {
    for (const r of ingest.received) {
      // Anything else (the server SDK's own envelopes, say) is not the tunnel's.
      if (r.text === envelope) matched.set(r.path, (matched.get(r.path) ?? 0) + 1);
    }
    ingest.received.length = 0;
  };
  const timer = setInterval(drain, 50);
  return {
    /** Identical envelopes that arrived at `path` since the last reset. */
    matched(path: string): number {
      drain();
      return matched.get(path) ?? 0;
    },
    reset() {
      drain();
      matched.clear();
    },
    stop: () => clearInterval(timer),
  };
}
