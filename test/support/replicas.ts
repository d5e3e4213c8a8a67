// replicas.ts (test support): replicas of an app, each in a process of its own (replica-server.ts), on one
// throwaway PostgreSQL database, started before a file's tests and stopped by pid after them.
import { afterAll, beforeAll } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { startPostgres, type Postgres } from "brisk/test";

const SERVER = join(import.meta.dir, "replica-server.ts");

/** Call at a test file's top level: `origins()` then gives the replicas' origins, in the order they were asked. */
export function useReplicas(count: number, app: "fixture" | "example"): { origins(): string[] } {
  let pg: Postgres | undefined;
  let dataDir: string | undefined;
  const processes: Subprocess<"ignore", "pipe", "inherit">[] = [];
  const origins: string[] = [];

  async function start(databaseUrl: string): Promise<string> {
    const proc = Bun.spawn([process.execPath, SERVER], {
      env: { ...Bun.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, DATA_DIR: dataDir, REPLICA_APP: app },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "inherit",
    });
    processes.push(proc);
    let out = "";
    for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) {
      out += chunk;
      const origin = /^http:\/\/\S+$/m.exec(out)?.[0];
      if (origin) return origin;
    }
    throw new Error(`the replica exited before it listened: ${out}`);
  }

  beforeAll(async () => {
    pg = await startPostgres();
    dataDir = await mkdtemp(join(tmpdir(), "brisk-replicas-"));
    const url = await pg.createDatabase("replicas");
    origins.push(...(await Promise.all(Array.from({ length: count }, () => start(url)))));
  }, 60_000);
  afterAll(async () => {
    for (const proc of processes) proc.kill("SIGTERM");
    await Promise.all(processes.map((proc) => proc.exited));
    await pg?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return { origins: () => origins };
}
