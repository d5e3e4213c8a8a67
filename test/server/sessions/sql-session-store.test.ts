// sql-session-store.test.ts: sqlSessionStore on a real SQLite file and a real PostgreSQL: the table it makes at first
// use or at setup(), create/read/update/destroy, rows past their expiry never read, the purge (bounded, at most
// every purgeEvery, started by a creation and never awaited by it), concurrent writes of one session from two
// replicas, and names and options refused when the store is made.
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { SQL } from "bun";
import { sqlSessionStore, type LogRecord, type SqlSessionStoreOptions } from "brisk/server";
import { SESSION_BACKENDS, useSessionDatabases } from "../../support/session-databases.ts";
import { changes } from "../../support/until.ts";

const T0 = Date.parse("2026-03-01T12:00:00Z");
const DAY_MS = 24 * 60 * 60 * 1000;
afterEach(() => void setSystemTime());

const { fresh, connection } = useSessionDatabases("sql_sessions");

/** A store on its own connection, and the log lines it wrote, which a test can wait on. */
function storeOn(connect: () => SQL, options: SqlSessionStoreOptions = {}) {
  const lines: LogRecord[] = [];
  const logged = changes();
  const store = sqlSessionStore(connection(connect), {
    ...options,
    log: (record) => {
      lines.push(record);
      logged.changed();
    },
  });
  return { store, lines, logged };
}

const idsIn = async (sql: SQL, table = "sessions") =>
  (await sql<Array<{ id: string }>>`SELECT id FROM ${sql(table)} ORDER BY id`).map((row) => row.id);

describe.each(SESSION_BACKENDS)("sqlSessionStore on %s", (backend) => {
  test("its table is made at first use: create, read, update and delete by id", async () => {
    const connect = await fresh(backend);
    const { store } = storeOn(connect);
    expect(await store.read("id-1")).toBeUndefined();
    await store.create("id-1", '{"a":1}', new Date(Date.now() + DAY_MS));
    expect(await store.read("id-1")).toBe('{"a":1}');
    await store.update("id-1", '{"a":2}');
    expect(await store.read("id-1")).toBe('{"a":2}');
    await store.delete("id-1");
    expect(await store.read("id-1")).toBeUndefined();
    expect(await idsIn(connection(connect))).toEqual([]);
  });

  test("the data comes back as it went: NUL, lone surrogates and quotes escaped in JSON, and text that is not JSON", async () => {
    const { store } = storeOn(await fresh(backend));
    const data = JSON.stringify({
      values: { name: "a\u0000b\ud800'\"\\ ; DROP TABLE sessions; --" },
      flash: {},
      issuedAt: T0,
    });
    await store.create("awkward", data, new Date(Date.now() + DAY_MS));
    expect(await store.read("awkward")).toBe(data);
    await store.update("awkward", "not JSON at all");
    expect(await store.read("awkward")).toBe("not JSON at all");
  });

  test("an update of a deleted session makes none: a sign-out stays a sign-out", async () => {
    const { store } = storeOn(await fresh(backend));
    await store.create("gone", "{}", new Date(Date.now() + DAY_MS));
    await store.delete("gone");
    await store.update("gone", '{"values":{"user":{"name":"ada"}}}');
    expect(await store.read("gone")).toBeUndefined();
  });

  test("a row past its expiry is never read, though it is still in the table until a purge", async () => {
    const connect = await fresh(backend);
    const { store } = storeOn(connect);
    setSystemTime(T0);
    await store.create("short", '{"n":1}', new Date(T0 + DAY_MS));
    setSystemTime(T0 + DAY_MS - 1);
    expect(await store.read("short")).toBe('{"n":1}');
    setSystemTime(T0 + DAY_MS);
    expect(await store.read("short")).toBeUndefined();
    expect(await idsIn(connection(connect))).toEqual(["short"]);
  });

  test("setup() makes the table and its index at start; stores starting together on one database all find them", async () => {
    const connect = await fresh(backend);
    const stores = Array.from({ length: 4 }, () => storeOn(connect).store);
    await Promise.all(stores.map((store) => store.setup()));
    const sql = connection(connect);
    const indexes =
      backend === "PostgreSQL"
        ? await sql`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'sessions' AND indexdef LIKE '%(expires_at)%'`
        : await sql`SELECT name FROM pragma_index_list('sessions') WHERE name = 'sessions_by_expiry'`;
    expect(indexes.map((row: { name: string }) => row.name)).toEqual(["sessions_by_expiry"]);
    await stores[0]!.create("one", "{}", new Date(Date.now() + DAY_MS));
    expect(await stores[3]!.read("one")).toBe("{}");
  });

  test("a table of its own name: the default one is never made", async () => {
    const connect = await fresh(backend);
    const { store } = storeOn(connect, { table: "app_sessions" });
    await store.create("mine", "{}", new Date(Date.now() + DAY_MS));
    const sql = connection(connect);
    expect(await idsIn(sql, "app_sessions")).toEqual(["mine"]);
    await expect(sql`SELECT id FROM sessions`).rejects.toThrow();
  });

  test("purge() deletes expired rows only, at most purgeLimit of them, the longest expired first", async () => {
    const connect = await fresh(backend);
    const { store, lines } = storeOn(connect, { purgeLimit: 2 });
    setSystemTime(T0);
    for (const [id, ms] of [
      ["c", 3000],
      ["a", 1000],
      ["live", DAY_MS],
      ["b", 2000],
    ] as const)
      await store.create(id, "{}", new Date(T0 + ms));
    // The first creation's purge found nothing expired; the ones after it were not due.
    expect(await store.purge()).toBe(0);
    setSystemTime(T0 + 5000);
    expect(await store.purge()).toBe(2);
    expect(await idsIn(connection(connect))).toEqual(["c", "live"]);
    expect(await store.purge()).toBe(1);
    expect(await store.purge()).toBe(0);
    expect(await idsIn(connection(connect))).toEqual(["live"]);
    expect(lines).toEqual([
      { level: "info", msg: "expired sessions purged", table: "sessions", deleted: 2 },
      { level: "info", msg: "expired sessions purged", table: "sessions", deleted: 1 },
    ]);
  });

  test("a creation starts a purge when one is due: at most every purgeEvery seconds, at once again after a full batch", async () => {
    const connect = await fresh(backend);
    const { store, lines, logged } = storeOn(connect, { purgeEvery: 60, purgeLimit: 2 });
    const purged = (count: number) => logged.until(() => lines.length === count, `purge ${count}`);
    const create = (id: string, expiresIn: number) => store.create(id, "{}", new Date(T0 + expiresIn));
    setSystemTime(T0);
    // The first creation purges (nothing yet); the next minute's do not.
    for (const id of ["a", "b", "c"]) await create(id, 1000);
    setSystemTime(T0 + 30_000);
    await create("d", DAY_MS);
    // Purges run one after another: had "d" started one, it would have taken two of the three, and this one less.
    expect(await store.purge()).toBe(2);
    // A full batch: the next creation purges at once.
    await create("e", DAY_MS);
    await purged(2);
    expect(lines[1]).toMatchObject({ deleted: 1 });
    for (const [id, expiresIn] of [
      ["x", 31_000],
      ["y", 75_000],
      ["w", 80_000],
    ] as const)
      await create(id, expiresIn);
    // 30 s after the last purge: none, though "x" has expired.
    setSystemTime(T0 + 60_000);
    await create("f", DAY_MS);
    setSystemTime(T0 + 90_000);
    await create("g", DAY_MS);
    await purged(3);
    expect(lines[2]).toMatchObject({ deleted: 2 });
    await create("h", DAY_MS);
    await purged(4);
    expect(lines[3]).toMatchObject({ deleted: 1 });
    expect(await idsIn(connection(connect))).toEqual(["d", "e", "f", "g", "h"]);
  });

  test("concurrent writes of one session from two replicas: each lands whole, and none outlives a delete", async () => {
    const connect = await fresh(backend);
    const [a, b] = [storeOn(connect).store, storeOn(connect).store];
    await a.create("shared", '{"n":-1}', new Date(Date.now() + DAY_MS));
    const written = Array.from({ length: 20 }, (_, n) => `{"n":${n}}`);
    await Promise.all(written.map((data, n) => (n % 2 ? a : b).update("shared", data)));
    expect(written).toContain((await a.read("shared"))!);
    expect(await b.read("shared")).toBe((await a.read("shared"))!);
    expect(await idsIn(connection(connect))).toEqual(["shared"]);
    await Promise.all([
      ...written.map((data, n) => (n % 2 ? a : b).update("shared", data)),
      b.delete("shared"),
      ...written.map((data) => a.update("shared", data)),
    ]);
    expect(await a.read("shared")).toBeUndefined();
    expect(await idsIn(connection(connect))).toEqual([]);
  });

  test("a failed set-up rejects the request that met it, and the next one tries again", async () => {
    const connect = await fresh(backend);
    let attempts = 0;
    const store = sqlSessionStore(
      () => {
        if (++attempts === 1) throw new Error("database not open yet");
        return connection(connect);
      },
      { log: () => {} },
    );
    await expect(store.read("x")).rejects.toThrow("database not open yet");
    expect(await store.read("x")).toBeUndefined();
  });
});

test("on PostgreSQL, a creation never waits for its purge: a purge held by a lock leaves sign-ins answered", async () => {
  const connect = await fresh("PostgreSQL");
  const { store, lines, logged } = storeOn(connect);
  setSystemTime(T0);
  await store.create("old", "{}", new Date(T0 + 1000));
  await store.purge();
  setSystemTime(T0 + DAY_MS);
  // Another transaction holds the expired row, so a purge waits on it.
  const holder = await connection(connect).reserve();
  try {
    await holder`BEGIN`;
    await holder`SELECT id FROM sessions WHERE id = 'old' FOR UPDATE`;
    await store.create("new", "{}", new Date(T0 + 2 * DAY_MS));
    expect(await store.read("new")).toBe("{}");
    expect(lines).toEqual([]);
    await holder`COMMIT`;
  } finally {
    holder.release();
  }
  await logged.until(() => lines.length === 1, "the held purge");
  expect(lines).toEqual([{ level: "info", msg: "expired sessions purged", table: "sessions", deleted: 1 }]);
});

test("a purge that fails is logged, never thrown at the creation that started it, and tried again after the pause", async () => {
  const connect = await fresh("SQLite");
  const { store, lines, logged } = storeOn(connect, { purgeEvery: 60 });
  setSystemTime(T0);
  await store.create("old", "{}", new Date(T0 + 1000));
  const sql = connection(connect);
  await sql`CREATE TRIGGER keep_sessions BEFORE DELETE ON sessions BEGIN SELECT RAISE(ABORT, 'deletes refused'); END`;
  setSystemTime(T0 + 60_000);
  await store.create("new", "{}", new Date(T0 + DAY_MS));
  await logged.until(() => lines.length === 1, "the failed purge's line");
  expect(lines).toEqual([
    {
      level: "error",
      msg: "expired sessions not purged",
      table: "sessions",
      error: expect.stringContaining("deletes refused"),
    },
  ]);
  expect(await store.read("new")).toBe("{}");
  await sql`DROP TRIGGER keep_sessions`;
  setSystemTime(T0 + 120_000);
  await store.create("later", "{}", new Date(T0 + DAY_MS));
  await logged.until(() => lines.length === 2, "the next purge's line");
  expect(lines[1]).toEqual({ level: "info", msg: "expired sessions purged", table: "sessions", deleted: 1 });
});

describe("made with what it cannot use", () => {
  const never = () => {
    throw new Error("the store touched the database");
  };

  test("a table name that is not a plain identifier is refused when the store is made", () => {
    for (const table of [
      "",
      "Sessions",
      "1sessions",
      "sessions; DROP TABLE users",
      'a"b',
      "public.sessions",
      "sessions-x",
      "séances",
      "x".repeat(54),
    ]) {
      expect(() => sqlSessionStore(never, { table })).toThrow(
        new TypeError(
          `sqlSessionStore: the table name ${JSON.stringify(table)} is not a plain identifier (a-z, 0-9 and _, not starting with a digit, at most 53 characters)`,
        ),
      );
    }
    expect(() => sqlSessionStore(never, { table: `_${"x".repeat(52)}` })).not.toThrow();
  });

  test("a purge interval or batch that is not a positive number is refused when the store is made", () => {
    for (const purgeEvery of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => sqlSessionStore(never, { purgeEvery })).toThrow(
        `sqlSessionStore: purgeEvery must be a positive number of seconds, not ${purgeEvery}`,
      );
    }
    for (const purgeLimit of [0, 1.5, -3]) {
      expect(() => sqlSessionStore(never, { purgeLimit })).toThrow(
        `sqlSessionStore: purgeLimit must be a positive whole number of rows, not ${purgeLimit}`,
      );
    }
  });

  test("a database other than SQLite or PostgreSQL is refused at first use", async () => {
    const mysql = connection(() => new SQL("mysql://nobody@127.0.0.1:1/none"));
    await expect(sqlSessionStore(mysql, { log: () => {} }).read("x")).rejects.toThrow(
      "sqlSessionStore: mysql is not supported; sessions are kept on SQLite or PostgreSQL",
    );
  });
});
