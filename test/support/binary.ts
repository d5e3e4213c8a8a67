// binary.ts (test support): the production binary of an app (the fixture app unless a test names another), built
// once per app and test run and copied alone into empty folders.
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../../src/server/build/binary.ts";
import { FIXTURE_APP_MODULE } from "./app.ts";
import { freePort } from "brisk/test";
import { serverEnv, start, waitForStatus, type Running } from "./process.ts";

/** Generous: a compile takes seconds on an idle machine and much longer on a busy CI runner. */
export const BUILD_TIMEOUT_MS = 180_000;

export interface TestBinary {
  bytes: number;
  buildId: string;
  /** The executable itself: kept in memory so that no 100 MB build folder outlives the run. */
  image: Uint8Array;
}

const builds = new Map<string, Promise<TestBinary>>();

/** `bun test` runs every file in one process, so the test files that need an app's binary share one build. */
export function builtBinary(appModule: string = FIXTURE_APP_MODULE): Promise<TestBinary> {
  let build = builds.get(appModule);
  if (!build) {
    build = (async () => {
      const outdir = await mkdtemp(join(tmpdir(), "brisk-build-"));
      try {
        const { binary, bytes, buildId } = await buildBinary({ outdir, appModule });
        return { bytes, buildId, image: new Uint8Array(await Bun.file(binary).arrayBuffer()) };
      } finally {
        await rm(outdir, { recursive: true, force: true });
      }
    })();
    builds.set(appModule, build);
  }
  return build;
}

export interface Alone {
  dir: string;
  binary: string;
  /** For afterAll. */
  remove(): Promise<void>;
}

/** A fresh folder holding nothing but the app's binary. */
export async function binaryAlone(appModule?: string): Promise<Alone> {
  const dir = await mkdtemp(join(tmpdir(), "brisk-alone-"));
  const binary = join(dir, "brisk");
  await Bun.write(binary, (await builtBinary(appModule)).image);
  await chmod(binary, 0o755);
  return { dir, binary, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface RunningBinary extends Running {
  origin: string;
  port: number;
  /** Spawn to the first 200 on `/`. */
  coldStartMs: number;
}

/** Starts the binary from its folder on a free loopback port; resolves once `/` answers 200. */
export async function startBinary(alone: Alone, env: Record<string, string> = {}): Promise<RunningBinary> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const since = performance.now();
  const running = start([alone.binary], {
    cwd: alone.dir,
    env: serverEnv({ HOST: "127.0.0.1", PORT: String(port), ...env }),
  });
  const coldStartMs = await waitForStatus(`${origin}/`, { since, everyMs: 1 }).catch((error: Error) => {
    throw new Error(`${error.message}; the binary wrote:\n${running.output()}`);
  });
  return { ...running, origin, port, coldStartMs: Math.round(coldStartMs) };
}
