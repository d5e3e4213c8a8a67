// binary.ts: the bench app's compiled server, built from the working tree: size, cold start, idle and peak memory.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary as buildAppBinary } from "../../src/server/build/binary.ts";
import { BENCH_APP } from "./bench-app.ts";
import { freePort } from "brisk/test";
import { SERVER_CORE, cpuSecondsOf, definedEnv, memoryOf, ourPids, pinned, stopChild, until200 } from "./proc.ts";

export interface Binary {
  path: string;
  /** Where it came from, for RESULTS.md. */
  origin: string;
  bytes: number;
}

/**
 * The binary of the bench app (bench/app), built from the working tree into `workDir` (dist/ is left alone)
 * by `bun run build`'s own recipe, with the client beside it in `workDir/client`, which the bench servers use too.
 */
export async function buildBinary(workDir: string): Promise<Binary> {
  const built = await buildAppBinary({ outdir: workDir, appModule: BENCH_APP });
  return {
    path: built.binary,
    origin:
      "the bench app (bench/app) built from the working tree by `bun run build`'s recipe (buildBinary) into a temporary folder",
    bytes: built.bytes,
  };
}

/**
 * Runs `use` on the binary at `given` (a soak's command-line argument), or else on the bench app's, built for it
 * into a temporary folder that goes once `use` is done.
 */
export async function withBinary<T>(use: (binary: Binary) => Promise<T>, given?: string): Promise<T> {
  if (given) return use({ path: given, origin: "given on the command line", bytes: Bun.file(given).size });
  const build = await mkdtemp(join(tmpdir(), "brisk-soak-build-"));
  try {
    console.log("soak: building the bench app's binary…");
    return await use(await buildBinary(build));
  } finally {
    await rm(build, { recursive: true, force: true });
  }
}

export interface RunningBinary {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the binary pinned to the server core, from `cwd` (it must need nothing beside it). */
export function spawnBinary(binary: Binary, port: number, env: Record<string, string>, cwd: string) {
  const proc = Bun.spawn(pinned(SERVER_CORE, [binary.path]), {
    cwd,
    env: definedEnv({ ...process.env, ...env, HOST: "127.0.0.1", PORT: String(port), NODE_ENV: "production" }),
    stdout: "ignore",
    stderr: "ignore",
  });
  ourPids.add(proc.pid);
  return proc;
}

/**
 * Spawn to the first 200 on `/`, polling every millisecond; `runs` times after one unrecorded run.
 * The CPU the process used by then is kept too: unlike the wall time, other load does not inflate it.
 */
export async function coldStarts(binary: Binary, env: Record<string, string>, cwd: string, runs = 10) {
  const coldStartsMs: number[] = [];
  const coldStartCpuMs: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const port = await freePort();
    const start = performance.now();
    const proc = spawnBinary(binary, port, env, cwd);
    try {
      const ms = await until200(`http://127.0.0.1:${port}/`, start, 10_000, 1);
      const cpuMs = cpuSecondsOf(proc.pid) * 1000;
      // The first run reads the 100 MB file into the page cache; the rest measure a start, not a disk read.
      if (i > 0) coldStartsMs.push(ms), coldStartCpuMs.push(cpuMs);
    } finally {
      ourPids.delete(proc.pid);
      proc.kill("SIGKILL");
      await proc.exited;
    }
  }
  return { coldStartsMs, coldStartCpuMs };
}

export async function startBinary(binary: Binary, env: Record<string, string>, cwd: string): Promise<RunningBinary> {
  const port = await freePort();
  const proc = spawnBinary(binary, port, env, cwd);
  const origin = `http://127.0.0.1:${port}`;
  await until200(`${origin}/`, performance.now(), 10_000, 5);
  return {
    origin,
    pid: proc.pid,
    stop: () => stopChild(proc),
  };
}

/** Samples VmRSS every 100 ms while `during` runs; VmHWM at the end is the kernel's own peak. */
export async function peakMemory<T>(
  pid: number,
  during: Promise<T>,
): Promise<{ result: T; sampledMiB: number; peakMiB: number }> {
  let sampled = 0;
  const timer = setInterval(() => (sampled = Math.max(sampled, memoryOf(pid).rssMiB)), 100);
  try {
    const result = await during;
    return { result, sampledMiB: sampled, peakMiB: memoryOf(pid).peakMiB };
  } finally {
    clearInterval(timer);
  }
}
