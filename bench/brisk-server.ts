// brisk-server.ts: the bench app (bench/app) started as src/server/main.ts starts an app, on the bench's own
// client build of it, joined before it listens to the other replicas on its DATABASE_URL (PostgreSQL), as main.ts
// joins them; its log lines (the bus's warnings) go to stderr, which the bench keeps in a file per server.
// Set SENTRY_DSN for "Sentry on" (and SENTRY_TRACES_SAMPLE_RATE for tracing): Sentry is initialised before the app
// listens, as in main.ts with tracing.
import { createApp, renderCacheOf, renderPrerenderedPages } from "../src/server/create-app.ts";
import { joinReplicas } from "../src/server/cache/replicas.ts";
import { startApp } from "../src/server/app-start.ts";
import { loadClientAssets } from "../src/server/assets/assets.ts";
import { parseConfig } from "../src/server/config/config.ts";
import app from "./app/app.ts";

const config = parseConfig(Bun.env);
const assets = loadClientAssets(app.routes, Bun.env.BENCH_CLIENT_DIR);
// Loaded only with a DSN, as main.ts does: "Sentry off" carries none of @sentry/bun (~21 MiB of RSS).
const monitoring = config.sentryDsn
  ? (await import("../src/server/monitoring/sentry.ts")).initServerSentry(
      config,
      config.sentryRelease ?? assets.manifest.buildId,
    )
  : undefined;
const log = (record: object) => console.error(JSON.stringify(record));
const { cookieSigner } = await startApp(config, app, log);
const server = createApp(config, app, {
  assets,
  cookieSigner,
  capture: monitoring?.capture,
  monitor: monitoring?.monitor,
});
await joinReplicas(config.databaseUrl, renderCacheOf(server), log);
server.listen({ hostname: config.host, port: config.port, reusePort: true });
await renderPrerenderedPages(server);
