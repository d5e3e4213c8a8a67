// sentry-monitor.ts: what Sentry does around each request: its isolation scope (the request on its events, the
// trace it continues), a routed request's count in release health, and with tracing its transaction and spans.
import type { Server } from "bun";
import * as Sentry from "@sentry/bun";
import type { Config } from "../config/config.ts";
import { visitorAddress } from "../request/forwarded.ts";
import type { RequestMonitor } from "../request/monitor.ts";
import type { RequestRecord } from "../request/context.ts";
import { SCOPED_REQUEST_KEY, type ScopedRequest } from "./sentry-request.ts";
import { tracingHooks } from "./sentry-tracing.ts";
import type { RequestSession } from "./sentry-sessions.ts";

type MonitorConfig = Pick<Config, "sentrySendDefaultPii" | "proxyHops" | "sentryTracesSampleRate">;

/** Counts a request's session in release health once it has ended. */
type CountSession = (session: RequestSession) => void;

/** Every request, in an isolation scope of its own: its own trace id, and the request on the events it causes. */
function inIsolationScope<T>(
  config: MonitorConfig,
  request: Request,
  server: Server<unknown> | null,
  handle: () => T,
): T {
  return Sentry.withIsolationScope((scope) => {
    // With SENTRY_SEND_DEFAULT_PII, the visitor's address as the tunnel takes it: the socket's, or behind
    // TRUST_PROXY the one the proxy saw. Never a header the visitor wrote.
    const ip = config.sentrySendDefaultPii ? visitorAddress(request, server, config.proxyHops) : undefined;
    scope.setSDKProcessingMetadata({
      [SCOPED_REQUEST_KEY]: { request, ip, start: Date.now() } satisfies ScopedRequest,
    });
    // The isolation scope already has a trace of its own; a page-data request continues its navigation's.
    const sentryTrace = request.headers.get("sentry-trace");
    return sentryTrace
      ? Sentry.continueTrace({ sentryTrace, baggage: request.headers.get("baggage") }, handle)
      : handle();
  });
}

/** A request the app's routes answer, counted in release health (as the SDK's own HTTP integration does). */
function countedRequest(
  count: CountSession,
  traced: RequestMonitor["routed"],
  request: Request,
  record: RequestRecord,
  handle: () => Promise<Response>,
): Promise<Response> {
  // An uptime check's HEAD is no visit.
  if (request.method === "HEAD") return handle();
  const scope = Sentry.getIsolationScope();
  scope.setSDKProcessingMetadata({ requestSession: { status: "ok" } satisfies RequestSession });
  // The scope keeps a copy: the one the client marks when an error is captured.
  const close = () => count(scope.getScopeData().sdkProcessingMetadata.requestSession as RequestSession);
  const response = traced ? traced(request, record, handle) : handle();
  // Not returned from finally(): that would hold the response back until the stream has ended.
  return response.finally(() => {
    const { done } = record;
    if (done) done.then(close, close);
    else close();
  });
}

export function sentryMonitor(config: MonitorConfig, count: CountSession): RequestMonitor {
  const sampleRate = config.sentryTracesSampleRate;
  const traced = sampleRate !== undefined ? tracingHooks(sampleRate) : undefined;
  return {
    request: (request, server, handle) => inIsolationScope(config, request, server, handle),
    routed: (request, record, handle) => countedRequest(count, traced?.routed, request, record, handle),
    ...(traced ? { step: traced.step, traceHeaders: traced.traceHeaders } : {}),
  };
}
