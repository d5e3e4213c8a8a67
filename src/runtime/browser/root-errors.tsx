// root-errors.tsx: hydrateRoot's error callbacks: the console, one report per failure, and the error page
// when nothing in the tree caught the error.
import { createRoot, type HydrationOptions } from "react-dom/client";
import type { Fallbacks } from "../fallback-pages.ts";
import { clientErrorPageProps } from "../error-page.ts";
import type { ClientConfig } from "../page-payload.ts";
import { PageBoundary } from "../PageBoundary.tsx";
import { clientDigest, ownDigest, type ErrorReport, type Reporter } from "../report.ts";
import { isOutcomeReport } from "./reporter.ts";

export interface RootErrorContext {
  report: Reporter;
  /** The host the exception page names. */
  host: string;
  /** Development shows the message and stack on the page, as the server's error page does. */
  mode: ClientConfig["mode"];
  ErrorPage: Fallbacks["error"];
}

/** React unmounted the whole document: put the client-side exception page in its place. */
function showErrorPage(error: unknown, { host, mode, ErrorPage }: RootErrorContext) {
  const container = document.createElement("div");
  document.body.replaceChildren(container);
  createRoot(container).render(<ErrorPage {...clientErrorPageProps(error, host, mode)} />);
}

export function rootErrorOptions(ctx: RootErrorContext): HydrationOptions {
  const handle = (
    error: unknown,
    info: { componentStack?: string },
    mechanism: ErrorReport["mechanism"],
    digest = ownDigest(error),
  ) => {
    const report: ErrorReport = { error, digest, componentStack: info.componentStack ?? undefined, mechanism };
    // An outcome is a page ending on purpose: neither the console nor Sentry hears of it.
    if (isOutcomeReport(report)) return;
    // The error pages send visitors to the console; React only logs there by default, which we replace.
    console.error(error);
    ctx.report(report);
  };
  return {
    onUncaughtError(error, info) {
      // The error page shows a digest, made here for a failure of the browser's own; the report carries it too.
      handle(error, info, "uncaught", clientDigest(error));
      // Whatever it was, the document is empty now: an error page beats a blank one.
      showErrorPage(error, ctx);
    },
    onCaughtError(error, info) {
      // PageBoundary reports what it catches itself, with its own mechanism: only log those here.
      if (info.errorBoundary instanceof PageBoundary) {
        if (!isOutcomeReport({ error, mechanism: "boundary" })) console.error(error);
        return;
      }
      handle(error, info, "caught");
    },
    onRecoverableError(error, info) {
      handle(error, info, "recoverable");
    },
  };
}
