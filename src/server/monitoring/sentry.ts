// sentry.ts: server-side error monitoring with @sentry/bun, on only when SENTRY_DSN is set.
import { join } from "node:path";
import * as Sentry from "@sentry/bun";
import { makeOfflineTransport, type OfflineTransportOptions } from "@sentry/core";
import { OUTCOME_MARKER, isOutcome } from "../../runtime/outcome.ts";
import { transactionName } from "../../runtime/trace-names.ts";
import { failUndelivered } from "../../runtime/sentry-transport.ts";
import type { Config } from "../config/config.ts";
import { stdoutLogger, type Logger } from "./logger.ts";
import type { RequestMonitor } from "../request/monitor.ts";
import type { CaptureError } from "../request/context.ts";
import { createOutbox } from "./sentry-outbox.ts";
import { embeddedSourcesIntegration, projectFrame } from "./sentry-frames.ts";
import { QUERY_FILTER, scopedRequestIntegration } from "./sentry-request.ts";
import { sentryMonitor } from "./sentry-monitor.ts";
import { requestSessions } from "./sentry-sessions.ts";

export interface ServerMonitoring {
  capture: CaptureError;
  /** The request scope, release health and (with tracing) transactions, for createApp. */
  monitor: RequestMonitor;
  /** Sends what is queued; for shutdown, before the process exits. */
  flush(timeoutMs: number): Promise<boolean>;
  /** Flushes, then turns the client off (tests that init more than once per process). */
  close(timeoutMs: number): Promise<boolean>;
}

/** Request sessions are sent as per-minute aggregates at most this often (the SDK's own HTTP default). */
const SESSION_FLUSH_MS = 60_000;

/**
 * The integrations, the same with tracing or without. None wraps Bun.serve or http: Brisk gives each
 * request its scope itself (sentry-monitor.ts), and captures each failure itself, with its digest.
 * Dedupe is left out because it drops an event that repeats the previous one's stack: two visitors
 * meeting the same bug are two occurrences, each with its own digest, and each must reach Sentry.
 */
function integrations() {
  return [
    Sentry.eventFiltersIntegration(),
    Sentry.functionToStringIntegration(),
    Sentry.linkedErrorsIntegration(),
    // A crash or an unhandled rejection outside any request is still an error worth seeing. "strict":
    // after sending it the process exits, as Bun does with no listener, so a DSN never changes that.
    Sentry.onUncaughtExceptionIntegration(),
    Sentry.onUnhandledRejectionIntegration({ mode: "strict" }),
    Sentry.nodeContextIntegration(),
    scopedRequestIntegration(),
    // ip: false: an address never comes from headers here (see scopedRequestIntegration).
    Sentry.requestDataIntegration({ include: { ip: false } }),
    // Context lines read the source files by their absolute paths, so before the frames are made relative;
    // in the binary, from its embedded copy of the project's sources.
    Sentry.contextLinesIntegration(),
    embeddedSourcesIntegration(),
    Sentry.rewriteFramesIntegration({ iteratee: projectFrame }),
  ];
}

export function initServerSentry(
  config: Config,
  release: string,
  { log = stdoutLogger }: { log?: Logger } = {},
): ServerMonitoring | undefined {
  if (!config.sentryDsn) return undefined;
  const tracing = config.sentryTracesSampleRate !== undefined;
  const outbox = createOutbox(
    join(config.dataDir, "sentry-outbox"),
    { maxEnvelopes: config.sentryOutboxMax, maxBytes: config.sentryOutboxMaxBytes },
    log,
  );
  const offline: Partial<OfflineTransportOptions> = { createStore: () => outbox.store, flushAtStartup: true };
  Sentry.init({
    dsn: config.sentryDsn,
    environment: config.sentryEnvironment,
    release,
    // Tracing only when configured: a rate of 0 would still create spans. Transactions ("static") rather
    // than streamed spans: every Sentry, self-hosted ones too, ingests them.
    ...(tracing ? { tracesSampleRate: config.sentryTracesSampleRate, traceLifecycle: "static" as const } : {}),
    defaultIntegrations: integrations(),
    // Its load-time module hooks only feed framework and tracing integrations Brisk does not use. (A
    // @sentry/node option that @sentry/bun passes on but leaves out of its type.)
    ...{ enableRuntimeChannelInjection: false },
    // SENTRY_SEND_DEFAULT_PII: without it, no user data and no cookies; headers, the URL and the query
    // still go, with credentials removed and sensitive names masked (in the Referer too: sentry-request.ts).
    dataCollection: {
      userInfo: config.sentrySendDefaultPii,
      cookies: config.sentrySendDefaultPii,
      httpBodies: [],
      urlQueryParams: QUERY_FILTER,
    },
    // What Sentry cannot take now waits on disk under DATA_DIR and is sent once it answers, after a restart too.
    transport: makeOfflineTransport(failUndelivered(Sentry.makeFetchTransport, outbox.delivered)),
    transportOptions: offline,
    // Outcomes are never captured on purpose; this also drops one that escapes as an unhandled rejection.
    ignoreErrors: [new RegExp(`^${OUTCOME_MARKER}`)],
  });
  const client = Sentry.getClient<Sentry.NodeClient>()!;
  const sessions = requestSessions(client, SESSION_FLUSH_MS);
  const monitor = sentryMonitor(config, sessions.count);
  return {
    capture(error, { digest, route, requestId, phase, method, path }) {
      if (isOutcome(error)) return;
      Sentry.withScope((scope) => {
        // Named as the route's transaction is, with tracing on or off: Sentry groups and searches events by it.
        scope.setTransactionName(transactionName(method, route));
        Sentry.captureException(error, {
          // Unhandled: the visitor got a 500 or an error section, not a recovered page.
          mechanism: { type: `brisk.${phase}`, handled: false },
          captureContext: {
            tags: { digest, phase, ...(route ? { route } : {}) },
            contexts: { request: { requestId, method, path } },
          },
        });
      });
      // The SDK counts an unhandled mechanism as a crash of the release. The server answered with its error
      // page and goes on serving: for release health the request errored, nothing crashed.
      const session = Sentry.getIsolationScope().getScopeData().sdkProcessingMetadata.requestSession as
        | { status?: string }
        | undefined;
      if (session) session.status = "errored";
    },
    monitor,
    flush: (timeoutMs) => Sentry.flush(timeoutMs),
    close: async (timeoutMs) => {
      outbox.close();
      return Sentry.close(timeoutMs);
    },
  };
}
