// replica-server.ts: the bench app (Sentry off) joined, before it listens, to the other replicas that share its
// DATABASE_URL, as src/server/main.ts joins them (cache/replicas.ts): lib/replica-invalidation.ts starts two.
// Its log lines (the bus's warnings) go to stderr, which the bench keeps in a file per server.
import { createApp, renderCacheOf, renderPrerenderedPages } from "../src/server/create-app.ts";
import { startApp } from "../src/server/app-start.ts";
import { loadClientAssets } from "../src/server/assets/assets.ts";
import { joinReplicas } from "../src/server/cache/replicas.ts";
import { parseConfig } from "../src/server/config/config.ts";
import type { Logger } from "../src/server/monitoring/logger.ts";
import app from "./app/app.ts";

const log: Logger = (record) => console.error(JSON.stringify(record));
const config = parseConfig(Bun.env);
const { cookieSigner } = await startApp(config, app, log);
const replica = createApp(config, app, {
  assets: loadClientAssets(app.routes, Bun.env.BENCH_CLIENT_DIR),
  cookieSigner,
});
await joinReplicas(config.databaseUrl, renderCacheOf(replica), log);
replica.listen({ hostname: config.host, port: config.port, reusePort: true });
await renderPrerenderedPages(replica);
