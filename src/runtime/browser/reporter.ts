// reporter.ts: the browser's error reports: outcomes dropped, each failure once, queued until Sentry loads.
// It is on the critical path, so it stays tiny and knows nothing of Sentry itself.
import { OUTCOME_MARKER } from "../outcome.ts";
import { ownDigest, type ErrorReport, type Reporter, type UnsentReport } from "../report.ts";

/** A page that keeps failing before Sentry arrives should not grow without bound; the first ones tell the story. */
const MAX_QUEUED = 30;

/**
 * What Sentry drops even when its own window handlers see it first: a cross-origin script's error says
 * nothing, and an outcome (redirect, not found…) is not an error at all.
 */
export const IGNORED_ERRORS = [/^Script error\.?$/, new RegExp(`^${OUTCOME_MARKER}`)];

/** Where reports wait when this page's Sentry chunk cannot load (offline, a deploy in between). */
export const UNSENT_KEY = "brisk:unsent-reports";

/** Keeps reports for the next page whose Sentry loads; the first ones tell the story, so later ones go first. */
function keepUnsent(reports: ErrorReport[]) {
  try {
    const kept = JSON.parse(localStorage.getItem(UNSENT_KEY) ?? "[]") as UnsentReport[];
    for (const { error, componentStack: _, ...rest } of reports) {
      const e = error as { name?: unknown; message?: unknown; stack?: unknown } | null;
      const stack = typeof e?.stack === "string" ? e.stack : undefined;
      kept.push({
        ...rest,
        name: String(e?.name ?? "Error"),
        message: String(e?.message ?? error),
        stack,
        url: location.href,
        time: Date.now(),
      });
    }
    localStorage.setItem(UNSENT_KEY, JSON.stringify(kept.slice(0, MAX_QUEUED)));
  } catch {
    // Storage disabled or full: these reports are lost, as they were before.
  }
}

export interface BrowserReporter {
  report: Reporter;
  /** Loads the sender once; what was reported before it is ready is sent then, in order. */
  start(load: () => Promise<Reporter>): Promise<void>;
}

/** Outcomes end a page on purpose; React also hands late ones on as errors whose digest is the marker. */
export function isOutcomeReport({ error, digest }: ErrorReport): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return (
    (digest ?? ownDigest(error) ?? "").startsWith(OUTCOME_MARKER) ||
    (typeof message === "string" && message.startsWith(OUTCOME_MARKER))
  );
}

/**
 * `enabled` is whether the page config has a DSN. Without one, reports go nowhere and nothing is kept.
 * With one, window errors are caught from now on; once the sender is ready, Sentry's own handlers take over.
 */
export function createBrowserReporter(enabled: boolean): BrowserReporter {
  let send: Reporter | undefined;
  let queue: ErrorReport[] | undefined = enabled ? [] : undefined;
  const seenErrors = new WeakSet<object>();
  const seenDigests = new Set<string>();

  const report: Reporter = (r) => {
    if (!queue && !send) return;
    if (isOutcomeReport(r)) return;
    const digest = r.digest ?? ownDigest(r.error);
    // One failure, one event. React may hand the same error to two callbacks, and a late server error
    // can reach the client twice, both times with the server's digest: as the page's own error and, when
    // hydration met the failed boundary, as React's "switched to client rendering" recoverable error.
    if (typeof r.error === "object" && r.error !== null) {
      if (seenErrors.has(r.error)) return;
      seenErrors.add(r.error);
    }
    if (digest) {
      if (seenDigests.has(digest)) return;
      seenDigests.add(digest);
    }
    const full = digest === r.digest ? r : { ...r, digest };
    if (send) send(full);
    else if (queue!.length < MAX_QUEUED) queue!.push(full);
  };

  // A cross-origin "Script error." has no error object and nothing to learn from.
  const onError = (e: ErrorEvent) => {
    if (e.error != null) report({ error: e.error, mechanism: "global" });
  };
  const onRejection = (e: PromiseRejectionEvent) => report({ error: e.reason, mechanism: "global" });
  if (enabled) {
    addEventListener("error", onError);
    addEventListener("unhandledrejection", onRejection);
  }
  const stopListening = () => {
    removeEventListener("error", onError);
    removeEventListener("unhandledrejection", onRejection);
  };

  return {
    report,
    async start(load) {
      if (!queue) return;
      try {
        const sender = await load();
        // Sentry's global handlers are installed by now: keeping ours would report window errors twice.
        stopListening();
        send = sender;
        for (const r of queue.splice(0)) send(r);
      } catch {
        // The chunk could not load (offline, a deploy in between): monitoring is off for this page, and what
        // it reported waits for the next page that has Sentry.
        stopListening();
        keepUnsent(queue);
      }
      queue = undefined;
    },
  };
}
