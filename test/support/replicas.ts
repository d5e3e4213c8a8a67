// replicas.ts (test support): replicas of the fixture app, each in a process of its own (brisk/test's
// startReplicas), on one throwaway PostgreSQL database, started before a file's tests and stopped after them.
import { afterAll, beforeAll } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres, startReplicas, type Postgres, type Replicas } from "brisk/test";
import { FIXTURE } from "./app.ts";

/** Call at a test file's top level: `origins()` then gives the replicas' origins, in the order they were started. */
export function useReplicas(count: number): { origins(): readonly string[] } {
  let pg: Postgres | undefined;
  let dataDir: string | undefined;
  let replicas: Replicas | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
    dataDir = await mkdtemp(join(tmpdir(), "brisk-replicas-"));
    const env = { DATABASE_URL: await pg.createDatabase("replicas"), DATA_DIR: dataDir };
    replicas = await startReplicas(count, { ...FIXTURE, env });
  }, 60_000);
  afterAll(async () => {
    await replicas?.stop();
    await pg?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return { origins: () => replicas?.origins ?? [] };
}
