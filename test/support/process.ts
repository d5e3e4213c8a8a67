// process.ts (test support): real server processes: their output as it comes, ready when they answer.
import type { Subprocess } from "bun";
import { changes } from "./until.ts";

export interface Running {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** stdout's complete lines that parse as JSON objects. */
  jsonLines(): Array<Record<string, unknown>>;
  /** Resolves with the output once `pattern` appears in it. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /**
   * For afterAll: SIGTERM, then SIGKILL if it lingers. SIGTERM first because `bun run` passes it on to
   * the script's process, where a SIGKILL would leave that child running.
   */
  kill(): Promise<void>;
}

async function collect(stream: ReadableStream<Uint8Array>, sink: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink(decoder.decode(chunk, { stream: true }));
}

export function start(
  cmd: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Running {
  const proc = Bun.spawn(cmd, { cwd: options.cwd, env: options.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let stdout = "";
  let all = "";
  const output = changes();
  const add = (text: string, toStdout: boolean) => {
    if (toStdout) stdout += text;
    all += text;
    output.changed();
  };
  void collect(proc.stdout, (text) => add(text, true));
  void collect(proc.stderr, (text) => add(text, false));
  return {
    proc,
    output: () => all,
    jsonLines: () =>
      stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    async waitForOutput(pattern, timeoutMs = 15_000) {
      await output.until(
        () => pattern.test(all),
        () => `${pattern} in the output, which is:\n${all}`,
        timeoutMs,
      );
      return all;
    },
    async kill() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 3_000);
      await proc.exited;
      clearTimeout(timer);
    },
  };
}

/** Polls until `url` answers `status`; resolves with the milliseconds since `since`. */
export async function waitForStatus(
  url: string,
  { status = 200, since = performance.now(), timeoutMs = 15_000, everyMs = 5 } = {},
) {
  for (;;) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === status) return performance.now() - since;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - since > timeoutMs)
      throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms`);
    await Bun.sleep(everyMs);
  }
}

/**
 * The environment of a child server: ours without what would turn Sentry on or pick its mode (the
 * test runner's NODE_ENV), plus `extra`.
 */
export function serverEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const { SENTRY_DSN: _dsn, SENTRY_TUNNEL_DSNS: _tunnel, NODE_ENV: _mode, ...rest } = process.env;
  return { ...rest, ...extra };
}
