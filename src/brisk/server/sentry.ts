// sentry.ts: server-side error monitoring with @sentry/bun, on only when SENTRY_DSN is set.
import * as Sentry from "@sentry/bun";
import { OUTCOME_MARKER, isOutcome } from "../runtime/outcome.ts";
import type { Config } from "./config.ts";
import type { CaptureError } from "./request-record.ts";

export interface ServerMonitoring {
  capture: CaptureError;
  /** Sends what is queued; for shutdown, before the process exits. */
  flush(timeoutMs: number): Promise<boolean>;
  /** Flushes, then turns the client off (tests that init more than once per process). */
  close(timeoutMs: number): Promise<boolean>;
}

/**
 * The error integrations, without the ones that wrap every request. Brisk captures each failure itself,
 * with its digest, so the Bun.serve and http wrappers (a per-request scope, sessions) would only cost
 * throughput. Without a request scope, breadcrumbs (console, fetch) would mix requests: left out too.
 * Dedupe is left out because it drops an event that repeats the previous one's stack: two visitors
 * meeting the same bug are two occurrences, each with its own digest, and each must reach Sentry.
 */
function errorIntegrations() {
  return [
    Sentry.eventFiltersIntegration(),
    Sentry.functionToStringIntegration(),
    Sentry.linkedErrorsIntegration(),
    // A crash or an unhandled rejection outside any request is still an error worth seeing. "strict":
    // after sending it the process exits, as Bun does with no listener, so a DSN never changes that.
    Sentry.onUncaughtExceptionIntegration(),
    Sentry.onUnhandledRejectionIntegration({ mode: "strict" }),
    Sentry.contextLinesIntegration(),
    Sentry.nodeContextIntegration(),
  ];
}

export function initServerSentry(config: Config, release: string): ServerMonitoring | undefined {
  if (!config.sentryDsn) return undefined;
  const tracing = config.sentryTracesSampleRate !== undefined;
  Sentry.init({
    dsn: config.sentryDsn,
    environment: config.sentryEnvironment,
    release,
    // Tracing only when configured: even a rate of 0 would load the tracing integrations. With it, the
    // SDK's defaults (request spans need the Bun.serve wrapper), still without Dedupe.
    ...(tracing
      ? {
          tracesSampleRate: config.sentryTracesSampleRate,
          integrations: (defaults) => defaults.filter((i) => i.name !== "Dedupe"),
        }
      : {
          defaultIntegrations: errorIntegrations(),
          // Its load-time module hooks only feed the framework and tracing integrations left out above.
          enableRuntimeChannelInjection: false,
        }),
    // Outcomes are never captured on purpose; this also drops one that escapes as an unhandled rejection.
    ignoreErrors: [new RegExp(`^${OUTCOME_MARKER}`)],
  });
  return {
    capture(error, { digest, route, requestId, phase, method, path }) {
      if (isOutcome(error)) return;
      Sentry.captureException(error, {
        // Unhandled: the visitor got a 500 or an error section, not a recovered page.
        mechanism: { type: `brisk.${phase}`, handled: false },
        captureContext: {
          tags: { digest, phase, ...(route ? { route } : {}) },
          contexts: { request: { requestId, method, path } },
        },
      });
    },
    flush: (timeoutMs) => Sentry.flush(timeoutMs),
    close: (timeoutMs) => Sentry.close(timeoutMs),
  };
}
