// serve.ts (brisk/test): an app served as main.ts serves it, in-process or on a real socket: what a test asks
// for and what it gets. The server is loaded by the first serveApp or listenApp call, not with brisk/test, so a
// test that only drives a browser or records Sentry's traffic never loads it (nor its Bun plugin).
import type { AppConfig, LogRecord } from "../../runtime/app-server.ts";

/** The origin of ServedApp.request's requests and apiClientFor's in-process calls. */
export const IN_PROCESS_ORIGIN = "http://localhost";

/** Which client build the pages link. */
export type ClientMode = "production" | "development";

export interface ServeOptions {
  /** The module whose default export is the app; the project's `#app` when omitted. */
  app?: string;
  /** Environment variables over NODE_ENV=production and a DATA_DIR for the test process. */
  env?: Record<string, string>;
  /** Which client build the pages link: production unless told. */
  clientMode?: ClientMode;
  /** The app's public files; public/ at the project root when omitted. */
  publicDir?: string;
  /**
   * Starts the server's Sentry as main.ts does, when `env` has a SENTRY_DSN (a fake ingest's, see
   * startFakeIngest). The SDK is one per process: end it with the served app's `sentry.close()`.
   */
  sentry?: boolean;
}

export interface ServedApp {
  /** What the app's own `server.start()` was handed: its mode, data folder and database URL. */
  config: AppConfig;
  /** Every line the app logged, the request lines included (see logFor). */
  logs: LogRecord[];
  /** The app's answer to a request, through its handler, with no socket. */
  handle(request: Request): Promise<Response>;
  /** handle() for `http://localhost<path>` (a realistic URL: Elysia misreads very short hosts). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Resolves once the routes marked prerender are rendered and stored, as a production server serves them. */
  prerendered(): Promise<void>;
  /**
   * The server's Sentry, when started (`sentry: true` and a DSN): send what it holds, or send and end it,
   * within a timeout in milliseconds; each resolves with whether it was met.
   */
  sentry?: { flush(timeoutMs: number): Promise<boolean>; close(timeoutMs: number): Promise<boolean> };
  /** Runs the app's own `server.stop()` (its database pool closed), as the server does on SIGTERM; once, however often called. */
  stop(): Promise<void>;
}

export interface ListeningApp extends ServedApp {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Closes the socket, in-flight requests with it, then runs the app's own `server.stop()`; once, however often called. */
  stop(): Promise<void>;
}

export async function serveApp(options: ServeOptions = {}): Promise<ServedApp> {
  return (await import("./served-app.ts")).serveWith(options);
}

/** The same app on a real socket on 127.0.0.1, on a port of its own. */
export async function listenApp(options: ServeOptions = {}): Promise<ListeningApp> {
  return (await import("./served-app.ts")).listenWith(options);
}
