// StreamExample.server.ts: the streaming example's loader: one value now, one about 300 ms later.
import type { LoaderContext } from "brisk";
import { sleep } from "./sleep.ts";

export function streamLoader({ signal }: LoaderContext) {
  return {
    requestedAt: new Date().toISOString(),
    section: sleep(300, signal).then(() => ({ items: ["alpha", "beta", "gamma"], readyAt: new Date().toISOString() })),
  };
}
