// monitoring-plugin.ts: the browser's reports' way in: `POST /monitoring` (Sentry envelopes, tunnel.ts) and CSP
// violation reports (csp-reports.ts), each answered for the visitor's address and with the tunnel's limits.
import { Elysia } from "elysia";
import { bodyPaceOf } from "../bodies/request-body.ts";
import type { Config } from "../config/config.ts";
import { CSP_REPORT_PATH } from "../http/security-headers.ts";
import { contextOf } from "../request/context.ts";
import { visitorAddress } from "../request/forwarded.ts";
import { handleCspReport, securityEndpoint } from "./csp-reports.ts";
import { createTunnel, handleMonitoring, methodNotAllowed } from "./tunnel.ts";

export function monitoringPlugin(config: Config, options: { fetch?: typeof fetch } = {}) {
  const tunnel = createTunnel({
    dsns: config.tunnelDsns,
    maxBytes: config.monitoringMaxBytes,
    timeoutMs: config.monitoringTimeoutMs,
    maxInFlight: config.monitoringMaxInFlight,
    bodyPace: bodyPaceOf(config),
    fetch: options.fetch,
    trustProxy: config.trustProxy,
  });
  const { proxyHops } = config;
  const cspEndpoint = securityEndpoint(config.sentryDsn);
  return (
    new Elysia({ name: "brisk:monitoring" })
      // Their 5xx are Sentry's, passed on or met on the way (502, 504): the site itself is fine.
      .onTransform(function markRelayed({ request }) {
        contextOf(request).relayed = true;
      })
      .post(
        CSP_REPORT_PATH,
        ({ request, server }) =>
          handleCspReport(request, visitorAddress(request, server, proxyHops), cspEndpoint, tunnel),
        { parse: "none" },
      )
      .all(CSP_REPORT_PATH, methodNotAllowed, { parse: "none" })
      .post(
        "/monitoring",
        ({ request, server }) => handleMonitoring(request, visitorAddress(request, server, proxyHops), tunnel),
        { parse: "none" },
      )
      .all("/monitoring", methodNotAllowed, { parse: "none" })
  );
}
