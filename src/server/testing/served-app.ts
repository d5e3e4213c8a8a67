// served-app.ts (brisk/test): the server behind serveApp and listenApp, loaded by their first call: the app
// started as main.ts starts it (its client build, its own server.start()) and answered through app.handle
// in-process or on a real socket. The framework's own tests also hand it what an app's tests never need
// (createApp's dependencies: Sentry's hooks of their own, another client build, the tunnel's fetch).
import type { LogRecord } from "../../runtime/app-server.ts";
import { startApp } from "../app-start.ts";
import { createApp, renderCacheOf, renderPrerenderedPages, type AppDeps, type BriskApp } from "../create-app.ts";
import { joinReplicas } from "../cache/replicas.ts";
import { importedAssets } from "../assets/imported-assets.ts";
import { projectAppModule } from "../build/app-module.ts";
import { loadApp } from "./app-module.ts";
import { clientBuild } from "./client.ts";
import { testConfig } from "./config.ts";
import { IN_PROCESS_ORIGIN, type ListeningApp, type ServedApp, type ServeOptions } from "./serve.ts";

// As main.ts does before it loads the app: an imported image is its hashed /assets/ URL on the server too.
Bun.plugin(importedAssets());

/** The served app, and the Elysia app behind it for listenWith. */
async function start(options: ServeOptions, deps: AppDeps): Promise<{ app: BriskApp; served: ServedApp }> {
  const appModule = options.app ?? projectAppModule();
  const logs: LogRecord[] = [];
  const log = (r: LogRecord) => void logs.push(r);
  const config = testConfig(options.env);
  const definition = await loadApp(appModule);
  // As main.ts starts an app: the cookie secret, then the app's own start (its database).
  const started = await startApp(config, definition, log);
  const { assets } = await clientBuild({ app: appModule, mode: options.clientMode, publicDir: options.publicDir });
  // Loaded only when asked for: @sentry/bun is slow to load (bench/README.md, figures the source carried).
  const sentry = options.sentry ? await import("../monitoring/sentry.ts") : undefined;
  const monitoring = sentry?.initServerSentry(config, config.sentryRelease ?? assets.manifest.buildId, { log });
  const hooks = monitoring ? { capture: monitoring.capture, monitor: monitoring.monitor } : {};
  const app = createApp(config, definition, { assets, log, cookieSigner: started.cookieSigner, ...hooks, ...deps });
  const leaveReplicas = await joinReplicas(config.databaseUrl, renderCacheOf(app), log);
  const served: ServedApp = {
    config: started.config,
    logs,
    handle: (request) => app.handle(request),
    request: (path, init) => app.handle(new Request(`${IN_PROCESS_ORIGIN}${path}`, init)),
    prerendered: () => renderPrerenderedPages(app),
    sentry: monitoring,
    stop: once(async () => {
      await leaveReplicas();
      await started.stop();
    }),
  };
  return { app, served };
}

/** `stop` run on the first call only; every call resolves when that one has. */
function once(stop: () => Promise<void>): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () => (stopped ??= stop());
}

/** serveApp, with `deps` over what the served app hands createApp. */
export async function serveWith(options: ServeOptions, deps: AppDeps = {}): Promise<ServedApp> {
  return (await start(options, deps)).served;
}

/** listenApp, with `deps` over what the served app hands createApp. */
export async function listenWith(options: ServeOptions, deps: AppDeps = {}): Promise<ListeningApp> {
  const { app, served } = await start(options, deps);
  app.listen({ hostname: "127.0.0.1", port: 0 });
  const port = app.server!.port!;
  const stop = once(async () => {
    await app.stop(true);
    await served.stop();
  });
  return { ...served, origin: `http://127.0.0.1:${port}`, port, stop };
}
