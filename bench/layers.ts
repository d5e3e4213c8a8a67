// layers.ts: `bun bench/layers.ts`: what each of Brisk's layers costs one request of a page rendered per request,
// in µs of CPU (this process's, zlib's threads included), timed one layer at a time (the layer's own functions
// called as a request calls them, the cases in interleaved rounds, the median round reported). Small layers drown in the noise of a wrk A/B on a
// shared machine; here a few tenths of a µs show. What a layer costs inside Bun's HTTP server and its garbage
// collection under load is not in these figures: `bench/ablation.ts` measures the big layers that way.
// Needs the bench app's client build: BENCH_CLIENT_DIR, or one is built into a temporary folder.
import { Elysia, type AnyElysia } from "elysia";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { startApp } from "../src/server/app-start.ts";
import { parseConfig } from "../src/server/config/config.ts";
import { createApp, pageHandlerDeps } from "../src/server/create-app.ts";
import { loadClientAssets } from "../src/server/assets/assets.ts";
import { compressed } from "../src/server/http/compress.ts";
import { createSecurityHeaders } from "../src/server/http/security-headers.ts";
import { batchedLogger } from "../src/server/monitoring/logger.ts";
import { logRequest } from "../src/server/monitoring/request-log.ts";
import { requestScope } from "../src/server/monitoring/request-scope.ts";
import type { RequestMonitor } from "../src/server/request/monitor.ts";
import { requestPipeline } from "../src/server/pipeline.ts";
import { createRequestContext } from "../src/server/request/context.ts";
import { initServerSentry } from "../src/server/monitoring/sentry.ts";
import { handlePage } from "../src/server/pages/pages.ts";
import { pageScope } from "../src/server/pages/page-scope.ts";
import { createCookies } from "../src/server/cookies/cookies.ts";
import { scriptString } from "../src/runtime/script-json.ts";
import app from "./app/app.ts";
import { SESSION_COOKIE } from "./app/pages/session.server.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { BENCH_COOKIE_SECRET, sessionCookie } from "./lib/session.ts";

const ROUNDS = Number(Bun.env.LAYER_ROUNDS ?? 15);
const PER_ROUND = Number(Bun.env.LAYER_ITERATIONS ?? 2_000);
const ORIGIN = "http://localhost:3000";

const work = await mkdtemp(join(tmpdir(), "brisk-layers-"));
try {
  let clientDir = Bun.env.BENCH_CLIENT_DIR;
  if (!clientDir) await buildClient({ outdir: (clientDir = join(work, "client")), appModule: BENCH_APP });
  const env = {
    ...Bun.env,
    NODE_ENV: "production",
    DATA_DIR: join(work, "data"),
    COOKIE_SECRET: BENCH_COOKIE_SECRET,
    SENTRY_DSN: undefined,
  };
  const config = parseConfig(env);
  // A DSN nothing listens on: no event is sent for the pages measured here, only the request's scope is made.
  const sentryConfig = parseConfig({ ...env, SENTRY_DSN: "http://publickey@127.0.0.1:9/42" });
  const assets = loadClientAssets(app.routes, clientDir);
  const { cookieSigner } = await startApp(config, app, () => {});
  const security = createSecurityHeaders(config);
  const deps = pageHandlerDeps(config, app, { assets, capture: () => {}, security, cookieSigner });
  const bare = createApp(config, app, { assets, cookieSigner, log: () => {} });
  const monitoring = initServerSentry(sentryConfig, "layers", { log: () => {} })!;
  const cookie = await sessionCookie();
  const log = batchedLogger(() => {});
  const items = `${ORIGIN}/items`;
  const get = (url = items, headers: Record<string, string> = {}) =>
    new Request(url, { headers: { host: "localhost:3000", ...headers } });
  const drain = async (response: Response) => void (await response.arrayBuffer());
  const itemsData = app.routes.find((r) => r.path === "/items")!.loader!({} as never);
  const html = await (await handlePage(createRequestContext(get(), { cookies: deps.cookies }), deps)).text();
  // Elysia apps around a handler that answers a fixed page at once: Elysia alone, then in Brisk's request pipeline.
  const answer = () => new Response("<p>x</p>", { headers: { "content-type": "text/html" } });
  const route = (elysia: AnyElysia) => elysia.all("*", answer, { parse: "none" });
  const bareElysia = route(new Elysia());
  const piped = (monitor?: RequestMonitor) =>
    route(
      new Elysia().wrap(
        requestPipeline({
          context: { trustIncomingId: config.trustProxy, cookies: deps.cookies },
          isPagePath: () => true,
          stored: () => undefined,
          scope: requestScope(monitor, () => null),
          failed: (_, error) => {
            throw error;
          },
          headers: Object.entries(security.common),
          log,
        }),
      ),
    );
  const withPipeline = piped();
  const withScope = piped(monitoring.monitor);

  /** One request's worth of a layer; the figure is its time less that of `baseline` (the request made, nothing else). */
  const cases: Record<string, () => unknown> = {
    baseline: () => get(),
    "request record (id, path, start)": () => createRequestContext(get()),
    "log line (JSON, batched write)": () => {
      const request = get();
      logRequest(log, createRequestContext(request), 200);
    },
    "CSP nonce and HTML headers": () => {
      const nonce = security.nonce();
      return new Response("x", { headers: security.html(nonce) });
    },
    "route matching": () => (get(), deps.match("/items")),
    "loader context": () => {
      const request = get();
      const scope = pageScope(createRequestContext(request), request, new URL(request.url), deps.cookies);
      return [scope.argsFor({}), scope.responseHeaders()];
    },
    "cookie parse": () => createCookies(get(items, { cookie }).headers.get("cookie"), deps.cookies).get(SESSION_COOKIE),
    "boot data (payload, config, JSON)": () => (
      get(),
      scriptString(
        JSON.stringify({
          page: {
            v: 2,
            path: "/items",
            search: "",
            route: "/items",
            assets: { css: [], js: [] },
            data: itemsData,
            deferred: [],
          },
          config: deps.clientConfig,
          host: "localhost",
          nonce: "x".repeat(24),
          queue: [],
        }),
      )
    ),
    "compression step, no Accept-Encoding": () =>
      compressed(get(), new Response(html, { headers: { "content-type": "text/html" } })),
  };
  const asyncCases: Record<string, () => Promise<unknown>> = {
    "async baseline": async () => get(),
    "signature check (HMAC)": async () =>
      createCookies(get(items, { cookie }).headers.get("cookie"), deps.cookies).getSigned(SESSION_COOKIE),
    "fixed answer, no framework": async () => answer(),
    "fixed answer on bare Elysia": () => bareElysia.handle(get()),
    "fixed answer, Brisk's request pipeline (host check, context, headers, log)": () => withPipeline.handle(get()),
    "fixed answer, that pipeline with Sentry's request scope": () => withScope.handle(get()),
    "Sentry scope and session": () => {
      const request = get();
      const record = createRequestContext(request);
      return monitoring.monitor.request!(request, null, () =>
        monitoring.monitor.routed!(request, record, async () => new Response(null)),
      );
    },
    "compression, brotli, streamed 10 KB page": async () =>
      drain(
        await compressed(
          get(items, { "accept-encoding": "br, gzip" }),
          new Response(new Blob([html]).stream(), { headers: { "content-type": "text/html" } }),
        ),
      ),
    "page handler (render, no Elysia)": async () =>
      drain(await handlePage(createRequestContext(get(), { cookies: deps.cookies }), deps)),
    // The session check in the loader, then the same check made by a guard middleware (bench/app/pages/guard.server.ts).
    "page handler, /session/items (the check in the loader)": async () =>
      drain(
        await handlePage(
          createRequestContext(get(`${ORIGIN}/session/items`, { cookie }), { cookies: deps.cookies }),
          deps,
        ),
      ),
    "page handler, /guarded/items (the check in a guard middleware)": async () =>
      drain(
        await handlePage(
          createRequestContext(get(`${ORIGIN}/guarded/items`, { cookie }), { cookies: deps.cookies }),
          deps,
        ),
      ),
    "whole app, Elysia in process": async () => drain(await bare.handle(get())),
  };

  const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const times = new Map<string, number[]>();
  const time = async (name: string, run: () => unknown) => {
    const start = process.cpuUsage();
    for (let i = 0; i < PER_ROUND; i++) {
      const out = run();
      if (out instanceof Promise) await out;
    }
    const used = process.cpuUsage(start);
    times.set(name, [...(times.get(name) ?? []), (used.user + used.system) / PER_ROUND]);
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(cases)) await time(name, run);
    for (const [name, run] of Object.entries(asyncCases)) await time(name, run);
    Bun.gc(true);
  }
  const base = median(times.get("baseline")!);
  const asyncBase = median(times.get("async baseline")!);
  console.log("| layer | µs per request |\n| --- | ---: |");
  for (const [name, xs] of times) {
    if (name.endsWith("baseline")) continue;
    console.log(`| ${name} | ${(median(xs) - (name in cases ? base : asyncBase)).toFixed(2)} |`);
  }
  console.log(`| (a request made: the baseline) | ${base.toFixed(2)} |`);
  // Rows that differ by one step are compared round by round: each round measures both alike, under the same load.
  const paired = (a: string, b: string) => {
    const [xs, ys] = [times.get(a)!, times.get(b)!];
    const diffs = xs.map((x, i) => x - ys[i]!);
    return `${median(diffs).toFixed(2)} µs (rounds: ${Math.min(...diffs).toFixed(1)} to ${Math.max(...diffs).toFixed(1)})`;
  };
  console.log(
    `\nA guard middleware against the same check in the loader, per request: ${paired("page handler, /guarded/items (the check in a guard middleware)", "page handler, /session/items (the check in the loader)")}`,
  );
  await monitoring.close(0);
} finally {
  await rm(work, { recursive: true, force: true });
}
