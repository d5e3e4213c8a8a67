// browser-sentry.ts: the browser's Sentry client, in its own chunk, loaded only on pages whose config has a DSN.
// A BrowserClient with a handful of error integrations instead of Sentry.init(): about 8 KB gzip less
// (no tracing, sessions, breadcrumbs or browser API wrapping), and this app reports React's errors itself.
import {
  BrowserClient,
  captureException,
  captureReactException,
  defaultStackParser,
  eventFiltersIntegration,
  getCurrentScope,
  globalHandlersIntegration,
  httpContextIntegration,
  linkedErrorsIntegration,
  makeFetchTransport,
} from "@sentry/react";
import type { ClientConfig } from "../runtime/page.ts";
import type { ErrorReport, Reporter } from "../runtime/report.ts";

/** Same origin, so ad blockers and the CSP's connect-src 'self' let it through; the server forwards it. */
const TUNNEL_PATH = "/monitoring";

/**
 * `ignoreErrors` comes from the caller, so this chunk imports nothing of the app's: anything it shared with
 * the entry would become one more chunk on every page's critical path.
 */
export function startBrowserSentry(
  { dsn, environment, release }: NonNullable<ClientConfig["sentry"]>,
  ignoreErrors: RegExp[],
): Reporter {
  const client = new BrowserClient({
    dsn,
    environment,
    release,
    tunnel: TUNNEL_PATH,
    transport: makeFetchTransport,
    stackParser: defaultStackParser,
    // No dedupe: each occurrence has its own digest and deserves its own event; the reporter
    // already drops the same failure seen twice.
    integrations: [eventFiltersIntegration(), linkedErrorsIntegration(), globalHandlersIntegration(), httpContextIntegration()],
    ignoreErrors,
  });
  getCurrentScope().setClient(client);
  client.init();

  return ({ error, digest, componentStack, mechanism, level = "error" }: ErrorReport) => {
    const hint = {
      // Only an error nothing caught counts as unhandled; boundaries and recoveries kept the page usable.
      mechanism: { type: `brisk.${mechanism}`, handled: mechanism !== "uncaught" && mechanism !== "global" },
      captureContext: { level, tags: digest ? { digest } : {} },
    };
    // With a component stack, Sentry links it to the error as a cause, so the event shows where in the tree.
    if (componentStack) captureReactException(error, { componentStack }, hint);
    else captureException(error, hint);
  };
}
