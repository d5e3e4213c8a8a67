// config.ts (test support): the ConfigError a bad environment gives, and a real process started with one.
import { resolve } from "node:path";
import { ConfigError, parseConfig } from "../../src/server/config/config.ts";
import { serverEnv } from "./process.ts";

const MAIN = resolve(import.meta.dir, "../../src/server/main.ts");

/** The ConfigError parseConfig throws for `env`; fails the test if it accepts it or throws anything else. */
export function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

/** Starts the server process with `extra` in its environment and waits for it to exit. */
export async function runServer(
  extra: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(["bun", MAIN], { env: serverEnv(extra), stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code, stdout, stderr };
}
