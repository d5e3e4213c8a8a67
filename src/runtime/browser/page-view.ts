// page-view.ts: turns a page payload into what components read, with streamed values as promises.
import { openPage } from "../deferred.tsx";
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

/**
 * The page of `payload`; its kept levels take their data from `shown`, the page they were kept from, which
 * the caller has checked has them (moves.ts loads the page whole otherwise).
 */
export function livePage(payload: PagePayload, shown?: PageView): LivePage {
  const sent = payload.levels.filter((level) => !level.kept);
  const { data, settlements, settle, pending } = openPage(
    sent.map((l) => ({ id: l.id, ready: l.data ?? null, deferred: l.deferred ?? [] })),
  );
  for (const { id, kept } of payload.levels) if (kept) data.set(id, shown?.data.get(id));
  return {
    view: { payload, data },
    settlements,
    settle,
    end() {
      for (const { route, key } of pending())
        settle({ route, key, error: { digest: "lost", side: "client", message: LOST } });
    },
  };
}
