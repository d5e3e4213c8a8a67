// page-view.ts: turns a page payload into what components read, with streamed values as promises.
import { applySettlement, tracked } from "../deferred.tsx";
import type { PageView } from "../navigation.ts";
import type { DeferredSettlement, PagePayload } from "../page-payload.ts";

export interface LivePage {
  view: PageView;
  /** Each streamed value's settlement, as the server's inline scripts carried it (for hydration). */
  settlements: Array<readonly [string, Promise<DeferredSettlement>]>;
  /** Settles one streamed value; unknown or repeated keys are ignored. */
  settle(s: DeferredSettlement): void;
  /** The stream ended: anything still pending will never come. */
  end(): void;
}

const LOST = "The page data stream ended before this value arrived";

export function livePage(payload: PagePayload): LivePage {
  const data: Record<string, unknown> | unknown = payload.deferred.length ? { ...(payload.data as object) } : payload.data;
  const pending = new Map(
    payload.deferred.map((key) => {
      const value = tracked<unknown>();
      const settlement = tracked<DeferredSettlement>();
      (data as Record<string, unknown>)[key] = value.promise;
      return [key, { value, settlement }] as const;
    }),
  );
  const settlements = [...pending].map(([key, p]) => [key, p.settlement.promise] as const);
  const settle = (s: DeferredSettlement) => {
    const p = pending.get(s.key);
    if (!p) return;
    pending.delete(s.key);
    p.settlement.resolve(s);
    applySettlement(s, p.value);
  };
  return {
    view: { payload, data },
    settlements,
    settle,
    end() {
      for (const key of [...pending.keys()]) settle({ key, error: { digest: "lost", side: "client", message: LOST } });
    },
  };
}
