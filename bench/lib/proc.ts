// proc.ts: the processes the bench starts: pinned to a core, ready when they answer 200, stopped by pid.
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import type { Subprocess } from "bun";
import { freePort } from "brisk/test";

/** Servers on one core, wrk and the bench itself (with the fake ingest) on the other: no fight for a core. */
export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

const hasTaskset = Bun.which("taskset") !== null;
/** With one core, or without taskset, nothing is pinned and RESULTS.md says so. */
export const pinning = hasTaskset && cpus().length >= 2;

/** `cmd` prefixed so that it and every thread it starts run on `core` (taskset execs, so the pid stays). */
export function pinned(core: number, cmd: string[]): string[] {
  return pinning ? ["taskset", "-c", String(core), ...cmd] : cmd;
}

/** Moves this process, all its threads, to `core`; its fake ingest then stays off the server's core. */
export function pinSelf(core: number): void {
  if (pinning) Bun.spawnSync(["taskset", "-a", "-p", "-c", String(core), String(process.pid)], { stdout: "ignore" });
}

/** Processes of this run (servers, the binary): their CPU is ours, not foreign load. */
export const ourPids = new Set<number>();

/** Polls `url` until it answers 200; resolves with the milliseconds since `since`. */
export async function until200(url: string, since: number, timeoutMs: number, everyMs = 1): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - since;
    } catch {
      // Not listening yet: connection refused.
    }
    if (performance.now() - since > timeoutMs) throw new Error(`${url} gave no 200 within ${timeoutMs} ms`);
    await Bun.sleep(everyMs);
  }
}

/** An undefined value removes the variable, so a SENTRY_DSN in the caller's shell cannot turn Sentry on. */
export function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** SIGTERM by pid, SIGKILL if it is still there after 3 s. */
export async function stopChild(proc: Subprocess): Promise<void> {
  ourPids.delete(proc.pid);
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 3_000);
  await proc.exited;
  clearTimeout(timer);
}

export interface Child {
  readonly name: string;
  readonly origin: string;
  readonly port: number;
  readonly pid: number;
  /** SIGTERM by pid, SIGKILL if it is still there after 3 s. */
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Where the child's stderr goes, read back when it fails to start. */
  stderrPath: string;
  readyPath?: string;
  timeoutMs?: number;
}

export async function startServer(name: string, cmd: string[], options: StartOptions): Promise<Child> {
  const port = await freePort();
  const proc = Bun.spawn(pinned(SERVER_CORE, cmd), {
    env: definedEnv({ ...process.env, ...options.env, HOST: "127.0.0.1", PORT: String(port) }),
    // Brisk logs one JSON line per request; a log collector drains it in production, /dev/null here.
    stdout: "ignore",
    stderr: Bun.file(options.stderrPath),
  });
  const origin = `http://127.0.0.1:${port}`;
  ourPids.add(proc.pid);
  const stop = () => stopChild(proc);
  try {
    await Promise.race([
      until200(origin + (options.readyPath ?? "/healthz"), performance.now(), options.timeoutMs ?? 15_000, 20),
      proc.exited.then((code) => {
        throw new Error(`exited with ${code}`);
      }),
    ]);
  } catch (error) {
    await stop();
    const stderr = await Bun.file(options.stderrPath)
      .text()
      .catch(() => "");
    throw new Error(`${name} did not start: ${(error as Error).message}\n${stderr.slice(-2000)}`);
  }
  return { name, origin, port, pid: proc.pid, stop };
}

/** VmRSS and VmHWM (peak) of a live process, in MiB. */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
}

export const TICKS_PER_SECOND = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/** CPU seconds (user + system) a process or one of its threads has used so far, from its `stat` file. */
function cpuSecondsIn(statPath: string): number {
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the whole line.
  const stat = readFileSync(statPath, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds a process has used so far; the delta over a run tells if its core was saturated. */
export function cpuSecondsOf(pid: number): number {
  return cpuSecondsIn(`/proc/${pid}/stat`);
}

/**
 * CPU seconds the JavaScript engine's compiler threads (JavaScriptCore's `JITWorker`) of a Bun process have used:
 * while they are busy the hot paths are still being compiled, and what a request costs is not yet what it will.
 */
export function jitCpuSecondsOf(pid: number): number {
  let seconds = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").startsWith("JIT"))
        seconds += cpuSecondsIn(`/proc/${pid}/task/${task}/stat`);
    } catch {
      // The thread ended between the listing and the read: its time is gone with it, from this sum and the next.
    }
  }
  return seconds;
}
