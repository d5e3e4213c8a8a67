// create-app.ts: createApp(config, app) assembles the server: the request pipeline, wrapped around one route
// plugin per concern, and the app it is given.
import type { Server } from "bun";
import { Elysia } from "elysia";
import type { AppDefinition } from "../runtime/app-definition.ts";
import { routeTree } from "../runtime/route-tree.ts";
import type { ClientConfig } from "../runtime/page-payload.ts";
import { apiPlugin } from "./api/api.ts";
import { refuseDroppedHooks } from "./api/dropped-hooks.ts";
import { assetsPlugin, loadClientAssets, type ClientAssets } from "./assets/assets.ts";
import { publicDsn, type Config } from "./config/config.ts";
import type { CookieSigner } from "./cookies/cookie-signer.ts";
import { errorResponse } from "./error-response.ts";
import { text } from "./request/responses.ts";
import { stdoutLogger, type Logger } from "./monitoring/logger.ts";
import { TRACING_MODULE } from "./assets/manifest.ts";
import { monitoringPlugin } from "./monitoring/monitoring-plugin.ts";
import { visitorAddress } from "./request/forwarded.ts";
import type { PageDeps } from "./pages/page-request.ts";
import { pagesPlugin, renderAgain } from "./pages/pages.ts";
import { cachedStep } from "./cache/cached-step.ts";
import { createCachedPages } from "./cache/cached-pages.ts";
import type { RenderCache } from "./cache/render-cache.ts";
import { builtPages } from "./prerender/built-pages.ts";
import { prerenderRoutes, type Prerendered } from "./prerender/prerender-routes.ts";
import { shellPages } from "./shell/shell-pages.ts";
import type { PrerenderedPages } from "./prerender/prerendered-page.ts";
import { createBodyReads, type BodyReads } from "./bodies/body-reads.ts";
import { createRenderPlaces } from "./pages/render-limit.ts";
import { bodyPaceOf } from "./bodies/request-body.ts";
import { createPublicFileHandler, type PublicFiles } from "./assets/public-files.ts";
import { type RequestMonitor } from "./request/monitor.ts";
import { requestScope } from "./monitoring/request-scope.ts";
import type { CaptureError, ContextOptions } from "./request/context.ts";
import { storedStep } from "./prerender/stored-step.ts";
import { createSecurityHeaders, type SecurityHeaders } from "./http/security-headers.ts";
import { pagePaths, requestPipeline } from "./pipeline.ts";

export interface AppDeps {
  /** The client build; loaded from dist/client (or the binary) when omitted. */
  assets?: ClientAssets;
  /** The app's public files; the build's copy when omitted (development passes the live folder). */
  publicFiles?: PublicFiles;
  /** Signs and verifies signed cookies (main.ts makes it from COOKIE_SECRET or DATA_DIR); none: signed cookies read as absent. */
  cookieSigner?: CookieSigner;
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
      dsn: publicDsn(config.sentryDsn),
      environment: config.sentryEnvironment,
      release: config.sentryRelease ?? assets.manifest.buildId,
    };
    if (config.sentryTracesSampleRate !== undefined) {
      clientConfig.sentry.tracing = {
        sampleRate: config.sentryTracesSampleRate,
        script: `/assets/${assets.manifest.chunks[TRACING_MODULE]}`,
      };
    }
    if (config.sentrySendDefaultPii) clientConfig.sentry.sendDefaultPii = true;
  }
  return clientConfig;
}

/** What the page handler needs, derived from the configuration and the app once. */
export function pageHandlerDeps(
  config: Config,
  app: AppDefinition,
  deps: {
    assets: ClientAssets;
    capture: CaptureError;
    security: SecurityHeaders;
    cookieSigner?: CookieSigner;
    bodyReads?: BodyReads;
    monitor?: RequestMonitor;
  },
): PageDeps {
  const { assets, capture, security } = deps;
  return {
    app,
    assets,
    capture,
    security,
    monitor: deps.monitor,
    match: routeTree(app.routes).match,
    mode: config.mode,
    cookies: { signer: deps.cookieSigner, secure: config.cookieSecure },
    bodyReads: deps.bodyReads ?? bodyReadsOf(config, () => null),
    renders: createRenderPlaces(config.renderMaxInFlight, config.proxyHops),
    trustProxy: config.trustProxy,
    clientConfig: clientConfigFor(config, assets),
  };
}

/** One pool for the bodies of actions and API routes together, each visitor's share by the address it comes from. */
function bodyReadsOf(config: Config, server: () => Server<unknown> | null): BodyReads {
  return createBodyReads({
    maxBytes: config.actionMaxBytes,
    pace: bodyPaceOf(config),
    clientOf: (request) => visitorAddress(request, server(), config.proxyHops),
  });
}

/** `ok`; asked for JSON, with the render cache's figures (its size, budget and hit rate) beside it. */
function healthPlugin(cache: RenderCache) {
  return new Elysia({ name: "brisk:health" }).get("/healthz", ({ request }) =>
    !request.headers.get("accept")?.includes("application/json")
      ? text(200, "ok")
      : Response.json({ status: "ok", renderCache: cache.stats() }, { headers: { "cache-control": "no-store" } }),
  );
}

const prerenders = new WeakMap<object, Prerendered>();
const renderCaches = new WeakMap<object, RenderCache>();

/** The render cache of an app's routes marked `cache`, or undefined when it marks none (cache/replicas.ts). */
export function renderCacheOf(server: BriskApp): RenderCache | undefined {
  return renderCaches.get(server);
}

/**
 * Renders what the build did not store of a production app's prerendered pages (once) and settles when they
 * are stored; rejects naming a route that cannot be prerendered. Called after listening: until then, those
 * pages render as usual.
 */
export function renderPrerenderedPages(server: BriskApp): Promise<void> {
  return prerenders.get(server)?.start() ?? Promise.resolve();
}

/** The pages a production app has stored, as the build keeps them. */
export function prerenderedPages(server: BriskApp): PrerenderedPages | undefined {
  return prerenders.get(server)?.pages();
}

export function createApp(config: Config, app: AppDefinition, deps: AppDeps = {}) {
  const assets = deps.assets ?? loadClientAssets(app.routes);
  const capture: CaptureError = deps.capture ?? (() => {});
  const log = deps.log ?? stdoutLogger;
  const security = createSecurityHeaders(config, { frameAncestors: app.frameAncestors });
  // The socket's address is known once the server listens (app.handle has none).
  const bodyReads = bodyReadsOf(config, () => server.server);
  const pageDeps = pageHandlerDeps(config, app, { ...deps, assets, capture, security, bodyReads });
  const contextOptions: ContextOptions = { trustIncomingId: config.trustProxy, cookies: pageDeps.cookies };
  const cached = createCachedPages(config, app, pageDeps, log, (href) => renderAgain(href, pageDeps, contextOptions));
  pageDeps.cached = cached;
  // Development renders every page: the code behind it changes. Shells are prerendered with the pages (start()).
  if (config.mode === "production") pageDeps.shells = shellPages(app.routes, pageDeps);
  const prerendered =
    config.mode === "production" ? prerenderRoutes(app.routes, pageDeps, builtPages(assets)) : undefined;
  const pipeline = requestPipeline({
    context: contextOptions,
    isPagePath: pagePaths(() => server.routes),
    stored: storedStep(
      prerendered,
      createPublicFileHandler(deps.publicFiles ?? assets.publicFiles),
      cached.keeps && cached.any ? cachedStep(cached) : undefined,
    ),
    scope: requestScope(deps.monitor, () => server.server),
    failed: (context, error) => errorResponse({ request: context.request, error, code: "UNKNOWN" }, capture),
    headers: Object.entries(security.common),
    log,
  });
  const server = new Elysia({ name: "brisk" })
    .wrap(pipeline)
    .onError({ as: "global" }, function respondToError({ request, error, code, route }) {
      return errorResponse({ request, error, code, route }, capture);
    })
    .use(healthPlugin(cached.cache))
    .use(assetsPlugin(assets))
    .use(monitoringPlugin(config, { fetch: deps.fetch }))
    .use(apiPlugin(app.api, { bodyReads, trustProxy: config.trustProxy }))
    .use(pagesPlugin(pageDeps));
  refuseDroppedHooks(server, app.api);
  if (prerendered) prerenders.set(server, prerendered);
  if (cached.any) renderCaches.set(server, cached.cache);
  return server;
}

export type BriskApp = ReturnType<typeof createApp>;
