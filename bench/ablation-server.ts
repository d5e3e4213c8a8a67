// ablation-server.ts: Brisk's page handler (src/server/pages/pages.ts) without the rest of Brisk, for bench/ablation.ts.
// ABLATION unset: on raw Bun.serve, no Elysia, no request log. "no-headers": that, without the security headers and
// the CSP nonce. "elysia": on a bare Elysia app (one catch-all route, no request pipeline: no host check, prerendered
// lookup, render bound, response headers, log line or Sentry scope). Everything else is Brisk's own code path: routing, loaders, outcomes, its
// React tree and boot data.
import { Elysia } from "elysia";
import { pageHandlerDeps } from "../src/server/create-app.ts";
import { startApp } from "../src/server/app-start.ts";
import { loadClientAssets } from "../src/server/assets/assets.ts";
import { parseConfig } from "../src/server/config/config.ts";
import { handlePage } from "../src/server/pages/pages.ts";
import { createRequestContext } from "../src/server/request/context.ts";
import { createSecurityHeaders, type SecurityHeaders } from "../src/server/http/security-headers.ts";
import app from "./app/app.ts";

const config = parseConfig(Bun.env);
const assets = loadClientAssets(app.routes, Bun.env.BENCH_CLIENT_DIR);
const noHeaders: SecurityHeaders = { common: {}, nonce: () => "", html: () => ({}), csp: () => "", scriptlessHtml: {} };
const security = Bun.env.ABLATION === "no-headers" ? noHeaders : createSecurityHeaders(config);
// The bench app's store (under DATA_DIR) and the cookie signer, as main.ts starts them.
const { cookieSigner } = await startApp(config, app, () => {});
const deps = pageHandlerDeps(config, app, { assets, capture: () => {}, security, cookieSigner });
const page = (request: Request) => handlePage(createRequestContext(request, { cookies: deps.cookies }), deps);

if (Bun.env.ABLATION === "elysia") {
  new Elysia()
    .get("/healthz", () => new Response("ok\n"))
    .all("*", ({ request }) => page(request), { parse: "none" })
    .listen({ hostname: config.host, port: config.port });
} else {
  Bun.serve({
    hostname: config.host,
    port: config.port,
    fetch(request) {
      if (new URL(request.url).pathname === "/healthz") return new Response("ok\n");
      return page(request);
    },
  });
}
