// brisk-server.ts: Brisk started as src/brisk/server/main.ts starts it, but on the bench's own client build.
// Set SENTRY_DSN for "Sentry on" (and SENTRY_TRACES_SAMPLE_RATE for tracing): Sentry is initialised before the app
// listens, as in main.ts with tracing.
import { createApp } from "../src/brisk/server/app.ts";
import { loadClientAssets } from "../src/brisk/server/assets.ts";
import { parseConfig } from "../src/brisk/server/config.ts";
import { initServerSentry } from "../src/brisk/server/sentry.ts";

const config = parseConfig(Bun.env);
const assets = loadClientAssets(Bun.env.BENCH_CLIENT_DIR);
const monitoring = initServerSentry(config, config.sentryRelease ?? assets.manifest.buildId);
createApp(config, { assets, capture: monitoring?.capture, monitor: monitoring?.monitor }).listen({ hostname: config.host, port: config.port, reusePort: true });
