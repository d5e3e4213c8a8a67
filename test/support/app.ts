// app.ts (test support): a real client build and a real app, through app.handle or a real socket.
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../../scripts/build-client.ts";
import { createApp, type AppDeps } from "../../src/brisk/server/app.ts";
import { loadClientAssets, type ClientAssets } from "../../src/brisk/server/assets.ts";
import { parseConfig, type Config } from "../../src/brisk/server/config.ts";
import type { LogRecord } from "../../src/brisk/server/logger.ts";

const builds = new Map<string, Promise<{ assets: ClientAssets; sourcemaps: string }>>();

/** One client build per mode per test process, in a temporary folder: `client/`, and `sourcemaps/` beside it. */
function clientBuild(mode: "production" | "development") {
  let build = builds.get(mode);
  if (!build) {
    build = (async () => {
      const dir = await mkdtemp(join(tmpdir(), `brisk-client-${mode}-`));
      // The build is read into memory at load, so the folder can go with the test process.
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      await buildClient({ outdir: join(dir, "client"), mode });
      return { assets: loadClientAssets(join(dir, "client")), sourcemaps: join(dir, "sourcemaps") };
    })();
    builds.set(mode, build);
  }
  return build;
}

export async function clientAssets(mode: "production" | "development" = "production"): Promise<ClientAssets> {
  return (await clientBuild(mode)).assets;
}

/** The folder the production build wrote its source maps to (with a copy of each script). */
export async function clientSourcemaps(): Promise<string> {
  return (await clientBuild("production")).sourcemaps;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return parseConfig({ NODE_ENV: "production", ...env });
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  logs: LogRecord[];
  /** app.handle with a realistic URL (Elysia misreads very short hosts). */
  request(path: string, init?: RequestInit): Promise<Response>;
}

export async function testApp(
  env: Record<string, string> = {},
  deps: AppDeps & { clientMode?: "production" | "development" } = {},
): Promise<TestApp> {
  const logs: LogRecord[] = [];
  const app = createApp(testConfig(env), {
    assets: await clientAssets(deps.clientMode),
    log: (r) => logs.push(r),
    ...deps,
  });
  return { app, logs, request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)) };
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
