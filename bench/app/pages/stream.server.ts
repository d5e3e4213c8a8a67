// stream.server.ts: the streamed page's loader: one value now, one 300 ms later.
import type { LoaderContext } from "brisk";
import { sleep } from "./sleep.ts";

export function streamLoader({ signal }: Pick<LoaderContext, "signal">) {
  return {
    requestedAt: new Date().toISOString(),
    section: sleep(300, signal).then(() => ({ items: ["alpha", "beta", "gamma"], readyAt: new Date().toISOString() })),
  };
}
