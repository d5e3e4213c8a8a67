// app.ts: createApp(config) assembles the server from one plugin per concern.
import { Elysia } from "elysia";
import { createMatcher } from "../runtime/match.ts";
import type { ClientConfig } from "../runtime/page.ts";
import { routes } from "../../app/routes.tsx";
import { assetsPlugin, loadClientAssets, type ClientAssets } from "./assets.ts";
import type { Config } from "./config.ts";
import { stdoutLogger, type Logger } from "./logger.ts";
import { TRACING_MODULE } from "./manifest.ts";
import { monitoringPlugin } from "./monitoring.ts";
import { pagesPlugin } from "./pages.ts";
import { requestScopePlugin, type RequestMonitor } from "./request-monitor.ts";
import { requestLogPlugin } from "./request-log.ts";
import type { RenderDeps } from "./render.tsx";
import { createSecurityHeaders, securityHeadersPlugin, type SecurityHeaders } from "./security-headers.ts";
import { createRequestRecord, reportError, type CaptureError, type RequestRecord } from "./request-record.ts";

export interface AppDeps {
  /** The client build; loaded from dist/client (or the binary) when omitted. */
  assets?: ClientAssets;
  /** Server-side error monitoring (Sentry); errors are only logged when omitted. */
  capture?: CaptureError;
  /** Sentry's request scope, release health and tracing hooks; requests run bare when omitted. */
  monitor?: RequestMonitor;
  log?: Logger;
  /** The tunnel's upstream fetch. */
  fetch?: typeof fetch;
}

function clientConfigFor(config: Config, assets: ClientAssets): ClientConfig {
  const clientConfig: ClientConfig = { mode: config.mode };
  if (config.sentryDsn) {
    clientConfig.sentry = {
      dsn: config.sentryDsn,
      environment: config.sentryEnvironment,
      release: config.sentryRelease ?? assets.manifest.buildId,
    };
    if (config.sentryTracesSampleRate !== undefined) {
      clientConfig.sentry.tracing = { sampleRate: config.sentryTracesSampleRate, script: `/assets/${assets.manifest.chunks[TRACING_MODULE]}` };
    }
    if (config.sentrySendDefaultPii) clientConfig.sentry.sendDefaultPii = true;
  }
  return clientConfig;
}

/** What the page handler needs, built from the configuration once. */
export function renderDeps(
  config: Config,
  deps: { assets: ClientAssets; capture: CaptureError; security: SecurityHeaders; monitor?: RequestMonitor },
): RenderDeps {
  return { ...deps, match: createMatcher(routes), mode: config.mode, clientConfig: clientConfigFor(config, deps.assets) };
}

function healthPlugin() {
  return new Elysia({ name: "brisk:health" }).get("/healthz", () => new Response("ok\n", { headers: { "cache-control": "no-store" } }));
}

export function createApp(config: Config, deps: AppDeps = {}) {
  const assets = deps.assets ?? loadClientAssets();
  const capture: CaptureError = deps.capture ?? (() => {});
  const log = deps.log ?? stdoutLogger;
  const security = createSecurityHeaders(config);
  return new Elysia({ name: "brisk" })
    .use(requestScopePlugin(deps.monitor))
    .use(securityHeadersPlugin(security))
    .use(requestLogPlugin(log))
    .onError({ as: "global" }, (ctx) => {
      // Elysia's own client errors are the request's fault: a 4xx, and nothing to report.
      if (ctx.code === "NOT_FOUND" || ctx.code === "PARSE" || ctx.code === "VALIDATION") {
        const status = ctx.code === "NOT_FOUND" ? 404 : 400;
        return new Response(`${ctx.code.toLowerCase().replace("_", " ")}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
      }
      // A visitor who went away mid-request is not a failure of ours.
      if (ctx.request.signal.aborted) return new Response(null, { status: 499 });
      // Elysia catches what a handler throws, so this is the one place left to see it.
      const record = (ctx as { record?: RequestRecord }).record ?? createRequestRecord(ctx.request, ctx.path);
      const digest = reportError(record, ctx.error, "handler", capture);
      return new Response(`internal server error (digest ${digest})\n`, {
        status: 500,
        headers: { "content-type": "text/plain; charset=utf-8", "x-request-id": record.id },
      });
    })
    .use(healthPlugin())
    .use(assetsPlugin(assets))
    .use(monitoringPlugin(config, { fetch: deps.fetch }))
    .use(pagesPlugin(renderDeps(config, { assets, capture, security, monitor: deps.monitor })));
}

export type BriskApp = ReturnType<typeof createApp>;
