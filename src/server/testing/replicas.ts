// replicas.ts (brisk/test): an app served as several replicas, each in a process of its own, as a deployment runs
// them: what one replica does must reach the others through what they share (the database, PostgreSQL's NOTIFY for
// the render cache), not through the memory of one test process, which would share their caches and prove nothing.
//
//   const pg = await startPostgres();
//   const replicas = await startReplicas(2, { env: { DATABASE_URL: await pg.createDatabase("app") } });
//   await fetch(`${replicas.origins[0]}/…`);   // then ask replicas.origins[1]
//   await replicas.stop();                    // SIGTERM to each pid, then waits for them
import { join } from "node:path";
import type { ServeOptions } from "./serve.ts";

export interface Replicas {
  /** http://127.0.0.1:<port> of each, in the order they were started. */
  readonly origins: readonly string[];
  /** Stops each (SIGTERM to its pid: the server's own shutdown) and waits until it has exited. */
  stop(): Promise<void>;
}

const PROCESS = join(import.meta.dir, "replica-process.ts");

async function originOf(proc: Bun.Subprocess<"ignore", "pipe", "inherit">): Promise<string> {
  let out = "";
  for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) {
    out += chunk;
    const origin = /^http:\/\/\S+$/m.exec(out)?.[0];
    if (origin) return origin;
  }
  throw new Error(`a replica exited before it listened: ${out}`);
}

/** `count` replicas of the app, each served as serveApp would with `options` (their env shared: one database). */
export async function startReplicas(count: number, options: ServeOptions = {}): Promise<Replicas> {
  const processes = Array.from({ length: count }, () =>
    Bun.spawn([process.execPath, PROCESS], {
      env: { ...Bun.env, NODE_ENV: "production", BRISK_REPLICA: JSON.stringify(options) },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "inherit",
    }),
  );
  const stop = async () => {
    for (const proc of processes) proc.kill("SIGTERM");
    await Promise.all(processes.map((proc) => proc.exited));
  };
  try {
    return { origins: await Promise.all(processes.map(originOf)), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
