// backends.ts: the example app served on each of its stores, SQLite and a throwaway PostgreSQL, for a test file
// that runs the same tests on both: the cluster starts before the file's tests and is removed after them.
import { afterAll, beforeAll } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveApp, startPostgres, type Postgres, type ServedApp } from "brisk/test";

export const BACKENDS = ["SQLite", "PostgreSQL"] as const;
export type Backend = (typeof BACKENDS)[number];

/** Call at a test file's top level; `serve(backend)` then serves the app on a fresh database of that kind. */
export function useBackends(database: string): { serve(backend: Backend): Promise<ServedApp> } {
  let pg: Postgres | undefined;
  const temps: string[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.remove();
    await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return {
    async serve(backend) {
      const dataDir = await mkdtemp(join(tmpdir(), `brisk-${database}-`));
      temps.push(dataDir);
      const env: Record<string, string> = { DATA_DIR: dataDir };
      if (backend === "PostgreSQL") env.DATABASE_URL = await pg!.createDatabase(database);
      return serveApp({ env });
    },
  };
}
