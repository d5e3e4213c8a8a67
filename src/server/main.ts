// main.ts: the process: read the configuration, start monitoring, listen, and stop gracefully.
import { checkHealth, healthUrl } from "./healthcheck.ts";
import { stdoutLogger, type LogRecord } from "./monitoring/logger.ts";
import { drain, onStopSignal } from "./shutdown.ts";
import { lateMonitor } from "./request/monitor.ts";
import type { CaptureError } from "./request/context.ts";
import { configOrExit, hostOrExit, listenOrExit, plainHttpWarning } from "./startup-config.ts";

const config = configOrExit(Bun.env);

if (process.argv.includes("--healthcheck")) {
  const healthy = await checkHealth(healthUrl(config));
  if (healthy !== true) console.error(`brisk: unhealthy: ${healthy}`);
  process.exit(healthy === true ? 0 : 1);
}
hostOrExit(config);

// What components import for its URL (an image, a font) resolves to the client build's hashed name; from
// source that takes a runtime plugin before the app loads (the binary's build applies the same one).
const { importedAssets } = await import("./assets/imported-assets.ts");
Bun.plugin(importedAssets());
// Imported only to serve: the health probe, run every few seconds, skips loading React and Elysia.
// `#app` is the app's definition (package.json "imports"): the one place the framework meets the app.
const [
  { createApp, renderPrerenderedPages, renderCacheOf },
  { loadClientAssets },
  { startApp },
  { joinReplicas },
  { default: app },
] = await Promise.all([
  import("./create-app.ts"),
  import("./assets/assets.ts"),
  import("./app-start.ts"),
  import("./cache/replicas.ts"),
  import("#app"),
]);

const assets = loadClientAssets(app.routes);
const cannotStart = (error: unknown): never => {
  stdoutLogger.flush();
  console.error(`brisk: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  return process.exit(1);
};
const appStarted = await startApp(config, app, stdoutLogger).catch(cannotStart);
const startSentry = async () =>
  config.sentryDsn
    ? (await import("./monitoring/sentry.ts")).initServerSentry(config, config.sentryRelease ?? assets.manifest.buildId)
    : undefined;
// Tracing wraps Bun.serve, so it must start first. Error monitoring alone starts a moment after listening: loading
// @sentry/bun costs CPU (bench/README.md, figures the source carried: start-up), which would delay the first
// responses (a container's health probe, a scaled-up replica's first visitors). Errors of those first moments wait
// in `early`.
let monitoring = config.sentryTracesSampleRate === undefined ? undefined : await startSentry();
const early: Array<Parameters<CaptureError>> = [];
const capture: CaptureError = (error, context) =>
  monitoring ? monitoring.capture(error, context) : early.push([error, context]);
const brisk = createApp(config, app, {
  assets,
  cookieSigner: appStarted.cookieSigner,
  capture: config.sentryDsn ? capture : undefined,
  monitor: config.sentryDsn ? (monitoring?.monitor ?? lateMonitor(() => monitoring?.monitor)) : undefined,
});
// Before listening: an invalidation this replica publishes must reach the others from its first request on.
const leaveReplicas = await joinReplicas(config.databaseUrl, renderCacheOf(brisk), stdoutLogger);
// reusePort: several processes on one host can listen on the same port; the kernel spreads connections.
// idleTimeout: a connection silent for 10 s is closed, so slow or stalled headers cannot hold sockets open;
// it is Bun's default, set here so it is a decision (Elysia adds no timeout of its own).
listenOrExit(
  () => brisk.listen({ hostname: config.host, port: config.port, reusePort: true, idleTimeout: 10 }),
  config,
);
// The prerendered pages are rendered while the server already answers (rendering them as usual until then),
// so they cost the cold start nothing; a route marked prerender that cannot be ends the process, naming it.
void renderPrerenderedPages(brisk).catch(cannotStart);
const SENTRY_START_DELAY_MS = 200;
const sentryStarted = monitoring
  ? Promise.resolve()
  : Bun.sleep(SENTRY_START_DELAY_MS).then(async () => {
      monitoring = await startSentry();
      for (const [error, context] of early.splice(0)) monitoring?.capture(error, context);
    });
const server = brisk.server!;
/** Lifecycle lines go out at once, after the request lines before them; requests' lines are batched. */
const announce = (record: LogRecord) => {
  stdoutLogger(record);
  stdoutLogger.flush();
};
announce({
  level: "info",
  msg: "listening",
  url: `http://${config.host}:${server.port}`,
  mode: config.mode,
  build: assets.manifest.buildId,
});
const plainHttp = plainHttpWarning({ ...config, port: server.port! });
if (plainHttp) announce({ level: "warn", msg: plainHttp });

onStopSignal(async (signal) => {
  const started = performance.now();
  announce({
    level: "info",
    msg: "stopping",
    signal,
    inFlight: server.pendingRequests,
    timeoutMs: config.shutdownTimeoutMs,
  });
  const { drained, abandoned } = await drain(server, config.shutdownTimeoutMs);
  await leaveReplicas();
  await appStarted.stop();
  await sentryStarted;
  await monitoring?.close(2_000);
  const ms = Math.round(performance.now() - started);
  announce({ level: drained ? "info" : "warn", msg: "stopped", signal, drained, abandoned, ms });
});
