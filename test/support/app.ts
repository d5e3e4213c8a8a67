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

const builds = new Map<string, Promise<ClientAssets>>();

/** One client build per mode per test process, in a temporary folder. */
export function clientAssets(mode: "production" | "development" = "production"): Promise<ClientAssets> {
  let build = builds.get(mode);
  if (!build) {
    build = (async () => {
      const outdir = await mkdtemp(join(tmpdir(), `brisk-client-${mode}-`));
      // The build is read into memory at load, so the folder can go with the test process.
      process.once("exit", () => rmSync(outdir, { recursive: true, force: true }));
      await buildClient({ outdir, mode });
      return loadClientAssets(outdir);
    })();
    builds.set(mode, build);
  }
  return build;
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
