// session-databases.ts (test support): fresh databases of the two kinds sessions are kept on, for a test file that
// runs the same tests on both: SQLite files in a temporary folder and databases on a throwaway PostgreSQL cluster,
// started before the file's tests; every connection made through it is closed, and the rest removed, after them.
import { afterAll, beforeAll } from "bun:test";
import { SQL } from "bun";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres, type Postgres } from "brisk/test";

export type SessionBackend = "SQLite" | "PostgreSQL";
export const SESSION_BACKENDS: readonly SessionBackend[] = ["SQLite", "PostgreSQL"];

export interface SessionDatabases {
  /** A new empty database of that kind; each call of the function it gives is a connection of its own (a replica's). */
  fresh(backend: SessionBackend): Promise<() => SQL>;
  /** A connection, closed after the file's tests. */
  connection(connect: () => SQL): SQL;
}

/** Call at a test file's top level; `name` tells its files and databases from another file's. */
export function useSessionDatabases(name: string): SessionDatabases {
  let pg: Postgres | undefined;
  let folder: string;
  const connections: SQL[] = [];
  let databases = 0;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), `brisk-${name}-`));
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled(connections.map((sql) => sql.close()));
    await pg?.remove();
    await rm(folder, { recursive: true, force: true });
  });
  return {
    async fresh(backend) {
      if (backend === "SQLite") {
        const file = join(folder, `${name}-${++databases}.sqlite`);
        return () => new SQL({ adapter: "sqlite", filename: file });
      }
      const url = await pg!.createDatabase(`${name}_${++databases}`);
      return () => new SQL(url);
    },
    connection(connect) {
      const sql = connect();
      connections.push(sql);
      return sql;
    },
  };
}
