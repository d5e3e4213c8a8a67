// app.ts (test support): a real client build and a real app, through app.handle or a real socket.
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../../src/server/build/client-build.ts";
import type { AppDefinition } from "../../src/runtime/app-definition.ts";
import { createApp, type AppDeps } from "../../src/server/create-app.ts";
import { startApp } from "../../src/server/app-start.ts";
import { loadClientAssets, type ClientAssets } from "../../src/server/http/assets.ts";
import { importedAssets } from "../../src/server/http/imported-assets.ts";
import { parseConfig, type Config } from "../../src/server/config.ts";
import type { LogRecord } from "../../src/server/monitoring/logger.ts";

// As main.ts does before it loads the app: an imported image is its hashed /assets/ URL on the server too.
Bun.plugin(importedAssets());

/** The framework's own test app (test/fixtures/app): framework tests never depend on the example app. */
export const FIXTURE_APP_MODULE = join(import.meta.dir, "../fixtures/app/app.ts");
export const FIXTURE_PUBLIC_DIR = join(import.meta.dir, "../fixtures/public");

/** The example app (`#app`): the ground truth of the end-to-end tests. */
export const EXAMPLE_APP_MODULE = Bun.resolveSync("#app", join(import.meta.dir, "../.."));

export async function loadApp(appModule: string = FIXTURE_APP_MODULE): Promise<AppDefinition> {
  return ((await import(appModule)) as { default: AppDefinition }).default;
}

type Mode = "production" | "development";

const builds = new Map<string, Promise<{ assets: ClientAssets; sourcemaps: string }>>();

/**
 * One client build per app and mode per test process, in a temporary folder: `client/`, and `sourcemaps/`
 * beside it. The fixture app unless `appModule` names another (the example app's end-to-end tests pass
 * `#app`'s module).
 */
function clientBuild(mode: Mode, appModule: string) {
  const key = `${mode}:${appModule}`;
  let build = builds.get(key);
  if (!build) {
    build = (async () => {
      const dir = await mkdtemp(join(tmpdir(), `brisk-client-${mode}-`));
      // The build is read into memory at load, so the folder can go with the test process.
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      const publicDir = appModule === FIXTURE_APP_MODULE ? FIXTURE_PUBLIC_DIR : undefined;
      await buildClient({ outdir: join(dir, "client"), mode, appModule, publicDir });
      const assets = loadClientAssets((await loadApp(appModule)).routes, join(dir, "client"));
      return { assets, sourcemaps: join(dir, "sourcemaps") };
    })();
    builds.set(key, build);
  }
  return build;
}

export async function clientAssets(mode: Mode = "production", appModule: string = FIXTURE_APP_MODULE): Promise<ClientAssets> {
  return (await clientBuild(mode, appModule)).assets;
}

/** The folder the production build wrote its source maps to (with a copy of each script). */
export async function clientSourcemaps(appModule: string = FIXTURE_APP_MODULE): Promise<string> {
  return (await clientBuild("production", appModule)).sourcemaps;
}

let dataDir: string | undefined;

/** One DATA_DIR per test process (the SQLite store, the generated cookie secret), removed when it ends. */
export function testDataDir(): string {
  if (!dataDir) {
    const dir = (dataDir = mkdtempSync(join(tmpdir(), "brisk-data-")));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return dataDir;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({ NODE_ENV: "production", DATA_DIR: testDataDir(), ...env });
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  config: Config;
  logs: LogRecord[];
  /** app.handle with a realistic URL (Elysia misreads very short hosts). */
  request(path: string, init?: RequestInit): Promise<Response>;
}

export async function testApp(
  env: Record<string, string> = {},
  deps: AppDeps & { clientMode?: "production" | "development"; appModule?: string } = {},
): Promise<TestApp> {
  const logs: LogRecord[] = [];
  const log = (r: LogRecord) => void logs.push(r);
  const config = testConfig(env);
  const definition = await loadApp(deps.appModule);
  // As main.ts starts an app: the cookie secret, then the app's own start (the example app's store).
  const { cookieSigner } = await startApp(config, definition, log);
  const app = createApp(config, definition, {
    assets: await clientAssets(deps.clientMode, deps.appModule),
    log,
    cookieSigner,
    ...deps,
  });
  return { app, config, logs, request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)) };
}

export interface Listening extends TestApp {
  origin: string;
  stop(): Promise<void>;
}

/** The same app on a real socket on 127.0.0.1. */
export async function listenApp(...args: Parameters<typeof testApp>): Promise<Listening> {
  const t = await testApp(...args);
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  const origin = `http://127.0.0.1:${t.app.server!.port}`;
  return { ...t, origin, stop: async () => void (await t.app.stop(true)) };
}

/** Waits until a response's log line has been written (streamed pages log when they finish). */
export async function logFor(logs: LogRecord[], response: Response, timeoutMs = 3000): Promise<LogRecord> {
  const id = response.headers.get("x-request-id");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = logs.find((l) => l.msg === "request" && l.requestId === id);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no log line for request ${id}; have ${JSON.stringify(logs)}`);
    await Bun.sleep(5);
  }
}
