// page-view.ts: turns a page payload into what components read, with streamed values as promises.
import { openSettlements } from "../deferred.tsx";
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
  const { data, settlements, settle, pending } = openSettlements(payload.data, payload.deferred);
  return {
    view: { payload, data },
    settlements,
    settle,
    end() {
      for (const key of pending()) settle({ key, error: { digest: "lost", side: "client", message: LOST } });
    },
  };
}
