// serve.ts (brisk/test): an app served as main.ts serves it (its client build, its own server.start()), through
// app.handle in-process or on a real socket.
import type { Config } from "../config/config.ts";
import { startApp } from "../app-start.ts";
import { createApp, renderPrerenderedPages, type AppDeps, type BriskApp } from "../create-app.ts";
import { importedAssets } from "../assets/imported-assets.ts";
import type { LogRecord } from "../monitoring/logger.ts";
import { projectAppModule } from "../build/app-module.ts";
import type { ServerMonitoring } from "../monitoring/sentry.ts";
import { loadApp } from "./app-module.ts";
import { clientBuild, type ClientMode } from "./client.ts";
import { testConfig } from "./config.ts";

// As main.ts does before it loads the app: an imported image is its hashed /assets/ URL on the server too.
Bun.plugin(importedAssets());

export interface ServeOptions {
  /** The module whose default export is the app; the project's `#app` when omitted. */
  app?: string;
  /** Environment variables over NODE_ENV=production and a DATA_DIR for the test process. */
  env?: Record<string, string>;
  /** Which client build the pages link: production unless told. */
  clientMode?: ClientMode;
  /** The app's public files; public/ at the project root when omitted. */
  publicDir?: string;
  /** What createApp is given over the test's own (the assets, the log, the cookie signer, Sentry's hooks). */
  deps?: AppDeps;
  /**
   * Starts the server's Sentry as main.ts does, when `env` has a SENTRY_DSN (a fake ingest's, see
   * startFakeIngest). The SDK is one per process: end it with the served app's `sentry.close()`.
   */
  sentry?: boolean;
}

export interface ServedApp {
  app: BriskApp;
  config: Config;
  /** Every line the app logged, the request lines included (see logFor). */
  logs: LogRecord[];
  /** app.handle with a realistic URL (Elysia misreads very short hosts). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Resolves once the routes marked prerender are rendered and stored, as a production server serves them. */
  prerendered(): Promise<void>;
  /** The server's Sentry, when started (`sentry: true` and a DSN): send what it holds, or send and end it. */
  sentry?: Pick<ServerMonitoring, "flush" | "close">;
  /** Runs the app's own `server.stop()` (its database pool closed), as the server does on SIGTERM; once, however often called. */
  stop(): Promise<void>;
}

export interface ListeningApp extends ServedApp {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Closes the socket, in-flight requests with it, then runs the app's own `server.stop()`; once, however often called. */
  stop(): Promise<void>;
}

export async function serveApp(options: ServeOptions = {}): Promise<ServedApp> {
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
  const app = createApp(config, definition, { assets, log, cookieSigner: started.cookieSigner, ...hooks, ...options.deps });
  return {
    app,
    config,
    logs,
    request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
    prerendered: () => renderPrerenderedPages(app),
    sentry: monitoring,
    stop: once(started.stop),
  };
}

/** `stop` run on the first call only; every call resolves when that one has. */
function once(stop: () => Promise<void>): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () => (stopped ??= stop());
}

/** The same app on a real socket on 127.0.0.1, on a port of its own. */
export async function listenApp(options: ServeOptions = {}): Promise<ListeningApp> {
  const served = await serveApp(options);
  served.app.listen({ hostname: "127.0.0.1", port: 0 });
  const origin = `http://127.0.0.1:${served.app.server!.port}`;
  const stop = once(async () => {
    await served.app.stop(true);
    await served.stop();
  });
  return { ...served, origin, stop };
}
