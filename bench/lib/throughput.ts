// throughput.ts: Brisk and the reference measured in turns of short slices on the same path, so that
// load from other processes on a shared machine falls on both alike; each side's slices are pooled.
import { meterForeignLoad } from "./load.ts";
import { cpuSecondsOf, jitCpuSecondsOf } from "./proc.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

export interface Endpoint {
  name: string;
  origin: string;
  pid: number;
}

/** One server's slices pooled: wrk's figures summed (latency pooled), plus what the bench saw around them. */
export interface Measurement extends Omit<WrkResult, "cpuSeconds" | "quantilesMs"> {
  server: string;
  path: string;
  /** Share of one core the server used: near 1 means the server, not wrk, was the limit. */
  serverCpu: number;
  /** Share of one core processes outside the bench used meanwhile. */
  foreignCpu: number;
  /** Share of its core wrk used: near 1 means wrk, not the server, may have been the limit. */
  wrkCpu: number;
  /** Share of a core the bench process (with the fake ingest) used meanwhile, on wrk's core. */
  benchCpu: number;
  /** Share of a core the server's compiler threads used meanwhile (part of serverCpu): near 0 once warm. */
  jitCpu: number;
  /** How long this server was warmed up on this path, and the compiler's CPU seconds in that time. */
  warmup: WarmUp;
}

export interface WarmUp {
  seconds: number;
  jitCpuSeconds: number;
  /** Whether the compiler had gone quiet (false: the warm-up ran out of time first). */
  settled: boolean;
}

export interface MeasureOptions {
  /** The least warm-up; it goes on, a second at a time, until the server's compiler has gone quiet. */
  warmupSeconds: number;
  /** The most warm-up, settled or not. */
  maxWarmupSeconds?: number;
  /** Measured seconds per server, split into `slices` turns. */
  seconds: number;
  slices: number;
  workDir: string;
  bodyFile?: string;
  contentType?: string;
  /** The path a server is asked for instead of the measured one (the reference's page a page is held against). */
  pathFor?: (server: Endpoint) => string;
  /** Headers for each server's requests (an Origin naming that server, say). */
  headers?: (server: Endpoint) => Record<string, string>;
  /** After the warm-ups, before the first measured slice. */
  beforeRun?: () => Promise<void>;
}

/** The latency at percentile `p` of all slices together, each slice weighted by its request count. */
export function pooledPercentile(slices: WrkResult[], p: number): number {
  const points = slices.flatMap((s) => s.quantilesMs.map((ms) => [ms, s.requests / s.quantilesMs.length] as const));
  points.sort((a, b) => a[0] - b[0]);
  const total = points.reduce((sum, [, w]) => sum + w, 0);
  let seen = 0;
  for (const [ms, w] of points) {
    seen += w;
    if (seen >= (p / 100) * total) return ms;
  }
  return points.at(-1)?.[0] ?? Number.NaN;
}

interface Tally {
  slices: WrkResult[];
  serverCpuSeconds: number;
  foreignCpuSeconds: number;
  benchCpuSeconds: number;
  jitCpuSeconds: number;
}

/**
 * The compiler counts as quiet when its threads used less than this share of the server's CPU over the last second
 * of load. Brisk's code (Elysia, Sentry, its render pipeline) is several times the raw reference's, and JavaScriptCore
 * goes on compiling it for ~15k requests, where the reference settles after ~5k: measured during that time, a Brisk
 * request would carry a compiler cost that a server running for hours no longer pays (bench/README.md).
 */
export const JIT_QUIET = 0.03;
export const MAX_WARMUP_SECONDS = 40;

/** The compiler's CPU since `before`: a compiler thread that ends takes its time out of the sum, never below 0. */
function compilerDelta(pid: number, before: number): number {
  return Math.max(0, jitCpuSecondsOf(pid) - before);
}

/** Load on the server a second at a time until its compiler has gone quiet, `least` seconds at the least. */
async function warmUp(
  server: Endpoint,
  run: (seconds: number) => Promise<unknown>,
  least: number,
  most: number,
): Promise<WarmUp> {
  let jitCpuSeconds = 0;
  for (let seconds = 1; ; seconds++) {
    const jitBefore = jitCpuSecondsOf(server.pid);
    const cpuBefore = cpuSecondsOf(server.pid);
    await run(1);
    const jit = compilerDelta(server.pid, jitBefore);
    jitCpuSeconds += jit;
    const settled = jit < JIT_QUIET * (cpuSecondsOf(server.pid) - cpuBefore);
    if ((seconds >= least && settled) || seconds >= most) return { seconds, jitCpuSeconds, settled };
  }
}

export async function measureInTurns(
  servers: Endpoint[],
  path: string,
  options: MeasureOptions,
): Promise<Measurement[]> {
  const load = (s: Endpoint) => ({
    url: s.origin + (options.pathFor?.(s) ?? path),
    workDir: options.workDir,
    bodyFile: options.bodyFile,
    contentType: options.contentType,
    headers: options.headers?.(s),
  });
  // Warm-up: the JIT compiles the hot paths, and every side starts from open keep-alive connections.
  const warmups: WarmUp[] = [];
  for (const s of servers) {
    warmups.push(
      await warmUp(
        s,
        (seconds) => runWrk({ ...load(s), seconds }),
        options.warmupSeconds,
        options.maxWarmupSeconds ?? MAX_WARMUP_SECONDS,
      ),
    );
  }
  await options.beforeRun?.();
  const tallies = servers.map(
    (): Tally => ({ slices: [], serverCpuSeconds: 0, foreignCpuSeconds: 0, benchCpuSeconds: 0, jitCpuSeconds: 0 }),
  );
  // wrk takes whole seconds only.
  const sliceSeconds = Math.max(1, Math.round(options.seconds / options.slices));
  for (let i = 0; i < options.slices; i++) {
    // Each round starts with the next server, so none always follows the same one.
    for (let k = 0; k < servers.length; k++) {
      const index = (i + k) % servers.length;
      const server = servers[index]!;
      const tally = tallies[index]!;
      const meter = meterForeignLoad();
      const cpuBefore = cpuSecondsOf(server.pid);
      const jitBefore = jitCpuSecondsOf(server.pid);
      const benchBefore = process.cpuUsage();
      const result = await runWrk({ ...load(server), seconds: sliceSeconds });
      tally.serverCpuSeconds += cpuSecondsOf(server.pid) - cpuBefore;
      tally.jitCpuSeconds += compilerDelta(server.pid, jitBefore);
      const bench = process.cpuUsage(benchBefore);
      tally.benchCpuSeconds += (bench.user + bench.system) / 1e6;
      tally.foreignCpuSeconds += meter.read(result.cpuSeconds) * result.seconds;
      tally.slices.push(result);
    }
  }
  return servers.map((server, i) => {
    const { slices, serverCpuSeconds, foreignCpuSeconds, benchCpuSeconds, jitCpuSeconds } = tallies[i]!;
    const sum = (f: (r: WrkResult) => number) => slices.reduce((total, r) => total + f(r), 0);
    const seconds = sum((r) => r.seconds);
    return {
      server: server.name,
      path,
      requests: sum((r) => r.requests),
      seconds,
      rps: sum((r) => r.requests) / seconds,
      p50Ms: pooledPercentile(slices, 50),
      p99Ms: pooledPercentile(slices, 99),
      non2xx: sum((r) => r.non2xx),
      socketErrors: sum((r) => r.socketErrors),
      serverCpu: serverCpuSeconds / seconds,
      foreignCpu: foreignCpuSeconds / seconds,
      wrkCpu: sum((r) => r.cpuSeconds) / seconds,
      benchCpu: benchCpuSeconds / seconds,
      jitCpu: jitCpuSeconds / seconds,
      warmup: warmups[i]!,
    };
  });
}
