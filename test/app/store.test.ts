// The example store on SQLite and on a real PostgreSQL cluster: schema set-up (a table of the first version gains
// the likes column), the guestbook and its likes, the sessions and notes, restarts that keep the data, an
// unreachable database as one line at start and a rejected promise on a request, and the app's like route and
// API on each.
import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { Database as SqliteFile } from "bun:sqlite";
import fc from "fast-check";
import { SQL } from "bun";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateEntry } from "../../src/app/store/entry.ts";
import { SQLITE_FILE } from "../../src/app/store/database.server.ts";
import { MAX_NOTE } from "../../src/app/store/note.ts";
import { openStore, StoreUnavailableError, type Store } from "../../src/app/store/store.server.ts";
import { freePort, serveApp, startPostgres, type Postgres } from "brisk/test";

/** Text that is hard to store: quotes, backslashes, NUL and other controls, CR line ends, a BOM, lone UTF-16 halves, any code point. */
function awkwardText(maxPieces: number): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.constantFrom(
      "'",
      '"',
      "\\",
      "`",
      "%",
      "_",
      "\0",
      "\r\n",
      "\r",
      "\uFEFF",
      "\u2028",
      "\u{1F600}",
      "e\u0301",
      "'; DROP TABLE guestbook_entries; --",
    ),
    fc.string({ unit: "binary", maxLength: 6 }),
    fc.string({ unit: "binary-ascii", maxLength: 6 }),
    fc.string({ unit: "grapheme", maxLength: 4 }),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  );
  return fc.array(piece, { maxLength: maxPieces }).map((pieces) => pieces.join(""));
}

/** Fixed, so every run tries the same cases and a failure replays. */
const PROPERTY = { seed: 20_260_601, numRuns: 100 };

type StoreOptions = { databaseUrl?: string; dataDir: string };

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "brisk-store-"));
  temps.push(dir);
  return dir;
}

const stores: Store[] = [];
/** A store closed after the test, whatever the test did with it. */
function open(options: StoreOptions): Store {
  const store = openStore(options);
  stores.push(store);
  return store;
}

let pg: Postgres;
let databases = 0;

beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);

afterEach(async () => {
  await Promise.allSettled(stores.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  await pg?.remove();
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

const backends = {
  SQLite: async (): Promise<StoreOptions> => ({ dataDir: join(await tempDir(), "not", "made", "yet") }),
  PostgreSQL: async (): Promise<StoreOptions> => ({
    databaseUrl: await pg.createDatabase(`store_${++databases}`),
    dataDir: await tempDir(),
  }),
};

describe.each(Object.keys(backends) as Array<keyof typeof backends>)("the store on %s", (backend) => {
  /** Options for a new, empty database. */
  const fresh = backends[backend];

  test("set-up is idempotent: a second store on the same database starts, and so do several at once", async () => {
    const options = await fresh();
    await open(options).ready();
    await open(options).ready();
    await Promise.all(Array.from({ length: 4 }, () => open(options).ready()));
  });

  test("addEntry keeps the checked entry and gives it back as stored", async () => {
    const store = open(await fresh());
    const before = Date.now();
    const entry = await store.guestbook.addEntry({ name: "  Ada ", message: "Hello\r\nworld" });
    expect(entry).toMatchObject({ name: "Ada", message: "Hello\nworld" });
    expect(entry.id).toBeInteger();
    expect(entry.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(entry.createdAt)).toBeGreaterThanOrEqual(before - 1);
    expect(await store.guestbook.getEntry(entry.id)).toEqual(entry);
  });

  test("listEntries is newest first and honours the limit", async () => {
    const store = open(await fresh());
    const added = [];
    for (const i of [1, 2, 3, 4]) added.push(await store.guestbook.addEntry({ name: `n${i}`, message: `m${i}` }));
    expect(await store.guestbook.listEntries()).toEqual(added.toReversed());
    expect((await store.guestbook.listEntries({ limit: 2 })).map((e) => e.name)).toEqual(["n4", "n3"]);
    expect(await store.guestbook.listEntries({ limit: 0 })).toEqual([]);
  });

  test("an empty guestbook lists nothing", async () => {
    expect(await open(await fresh()).guestbook.listEntries()).toEqual([]);
  });

  test("getEntry is undefined for an id that is not stored or is not an id at all", async () => {
    const store = open(await fresh());
    const { id } = await store.guestbook.addEntry({ name: "n", message: "m" });
    for (const missing of [
      id + 1,
      0,
      -1,
      1.5,
      Number.NaN,
      2 ** 31,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 2,
    ]) {
      expect({ missing, entry: await store.guestbook.getEntry(missing) }).toEqual({ missing, entry: undefined });
    }
  });

  test("addEntry refuses what validateEntry refuses, and stores nothing", async () => {
    const store = open(await fresh());
    for (const bad of [
      { name: "", message: "m" },
      { name: "n", message: "x".repeat(501) },
      { name: "n\u0000", message: "m" },
    ]) {
      expect(store.guestbook.addEntry(bad)).rejects.toThrow(TypeError);
    }
    expect(await store.guestbook.listEntries()).toEqual([]);
  });

  test("any text validateEntry accepts is stored and read back exactly as checked", async () => {
    const store = open(await fresh());
    await fc.assert(
      fc.asyncProperty(awkwardText(12), awkwardText(40), async (name, message) => {
        const checked = validateEntry({ name, message });
        if (!checked.ok) return;
        const entry = await store.guestbook.addEntry({ name, message });
        expect({ name: entry.name, message: entry.message }).toEqual(checked.entry);
        expect(await store.guestbook.getEntry(entry.id)).toEqual(entry);
      }),
      PROPERTY,
    );
  });

  test("data outlives the store: a new store on the same database finds every entry", async () => {
    const options = await fresh();
    const first = open(options);
    const entry = await first.guestbook.addEntry({ name: "kept", message: "across a restart" });
    await first.close();
    expect(await open(options).guestbook.listEntries()).toEqual([entry]);
  });
});

/** The guestbook's table as the first version made it, before likes: what an existing database holds. */
const FIRST_VERSION_TABLE = {
  sqlite: `CREATE TABLE guestbook_entries (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, message TEXT NOT NULL, created_at TEXT NOT NULL)`,
  postgres: `CREATE TABLE guestbook_entries (id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name TEXT NOT NULL, message TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL)`,
};

/** A connection of the test's own to the store's database, beside the store's. */
async function rawSql(options: StoreOptions): Promise<SQL> {
  if (options.databaseUrl) return new SQL(options.databaseUrl);
  await mkdir(options.dataDir, { recursive: true });
  return new SQL({ adapter: "sqlite", filename: join(options.dataDir, SQLITE_FILE) });
}

/** A database of the first version, with one entry in it, made with SQL of its own (no store). */
async function firstVersionDatabase(options: StoreOptions): Promise<void> {
  const sql = await rawSql(options);
  try {
    await sql.unsafe(FIRST_VERSION_TABLE[options.databaseUrl ? "postgres" : "sqlite"]);
    await sql`INSERT INTO guestbook_entries (name, message, created_at) VALUES (${"old"}, ${"from before likes"}, ${new Date(0).toISOString()})`;
  } finally {
    await sql.close();
  }
}

describe.each(Object.keys(backends) as Array<keyof typeof backends>)("likes on %s", (backend) => {
  const fresh = backends[backend];

  test("a new entry has none; like() adds one and gives the entry back as it now is", async () => {
    const store = open(await fresh());
    const entry = await store.guestbook.addEntry({ name: "n", message: "m" });
    expect(entry.likes).toBe(0);
    expect(await store.guestbook.like(entry.id)).toEqual({ ...entry, likes: 1 });
    expect(await store.guestbook.like(entry.id)).toEqual({ ...entry, likes: 2 });
    expect(await store.guestbook.getEntry(entry.id)).toEqual({ ...entry, likes: 2 });
    expect(await store.guestbook.listEntries()).toEqual([{ ...entry, likes: 2 }]);
  });

  test("like() of an id that is not stored, or is not an id, is undefined and changes nothing", async () => {
    const store = open(await fresh());
    const entry = await store.guestbook.addEntry({ name: "n", message: "m" });
    for (const missing of [entry.id + 1, 0, -1, 1.5, Number.NaN])
      expect(await store.guestbook.like(missing)).toBeUndefined();
    expect(await store.guestbook.getEntry(entry.id)).toEqual(entry);
  });

  test("likes at the same moment, from two stores on one database, are all counted", async () => {
    const options = await fresh();
    const [a, b] = [open(options), open(options)];
    const { id } = await a.guestbook.addEntry({ name: "n", message: "m" });
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).guestbook.like(id)));
    expect((await a.guestbook.getEntry(id))?.likes).toBe(30);
  });

  test("a database of the first version gains the column at start: its entries have 0 likes and can be liked", async () => {
    const options = await fresh();
    await firstVersionDatabase(options);
    const store = open(options);
    const [old] = await store.guestbook.listEntries();
    expect(old).toMatchObject({
      name: "old",
      message: "from before likes",
      createdAt: new Date(0).toISOString(),
      likes: 0,
    });
    expect((await store.guestbook.like(old!.id))?.likes).toBe(1);
    // The next start finds the column there and keeps the count.
    await store.close();
    expect((await open(options).guestbook.getEntry(old!.id))?.likes).toBe(1);
  });

  test("several stores starting together on a first-version database add the column once, all of them ready", async () => {
    const options = await fresh();
    await firstVersionDatabase(options);
    await Promise.all(Array.from({ length: 4 }, () => open(options).ready()));
    expect((await open(options).guestbook.listEntries()).map((e) => e.likes)).toEqual([0]);
  });
});

describe.each(Object.keys(backends) as Array<keyof typeof backends>)("sessions on %s", (backend) => {
  const DAY_MS = 24 * 60 * 60 * 1000;
  const T0 = Date.parse("2026-03-01T12:00:00Z");
  afterEach(() => void setSystemTime());

  test("create, read, update and delete, by id", async () => {
    const store = open(await backends[backend]());
    expect(await store.sessions.read("id-1")).toBeUndefined();
    await store.sessions.create("id-1", '{"a":1}', new Date(Date.now() + DAY_MS));
    expect(await store.sessions.read("id-1")).toBe('{"a":1}');
    await store.sessions.update("id-1", '{"a":2}');
    expect(await store.sessions.read("id-1")).toBe('{"a":2}');
    await store.sessions.delete("id-1");
    expect(await store.sessions.read("id-1")).toBeUndefined();
  });

  test("an update of a deleted session makes none: a sign-out stays a sign-out", async () => {
    const store = open(await backends[backend]());
    await store.sessions.create("gone", "{}", new Date(Date.now() + DAY_MS));
    await store.sessions.delete("gone");
    await store.sessions.update("gone", '{"values":{"user":{"name":"ada"}}}');
    expect(await store.sessions.read("gone")).toBeUndefined();
  });

  test("past its expiry a record reads as none, and a purge deletes it; live ones stay", async () => {
    const options = await backends[backend]();
    const store = open(options);
    setSystemTime(T0);
    await store.sessions.create("short", "{}", new Date(T0 + DAY_MS));
    await store.sessions.create("long", "{}", new Date(T0 + 14 * DAY_MS));
    setSystemTime(T0 + DAY_MS);
    expect(await store.sessions.read("short")).toBeUndefined();
    // The one a sign-in starts is not waited for (brisk/server's tests hold that); this one is.
    expect(await store.sessions.purge()).toBe(1);
    const sql = await rawSql(options);
    try {
      expect((await sql`SELECT id FROM sessions ORDER BY id`).map((r: { id: string }) => r.id)).toEqual(["long"]);
    } finally {
      await sql.close();
    }
  });

  test("two stores on one database (replicas) agree: one's session is the other's, and deleted on one it is gone on both", async () => {
    const options = await backends[backend]();
    const [a, b] = [open(options), open(options)];
    await a.sessions.create("shared", '{"n":1}', new Date(Date.now() + DAY_MS));
    expect(await b.sessions.read("shared")).toBe('{"n":1}');
    await b.sessions.delete("shared");
    expect(await a.sessions.read("shared")).toBeUndefined();
  });
});

describe.each(Object.keys(backends) as Array<keyof typeof backends>)("notes on %s", (backend) => {
  test("add keeps the checked note for a name; list is that name's notes, newest first", async () => {
    const store = open(await backends[backend]());
    const first = await store.notes.add("ada", "  first\r\nnote ");
    expect(first).toEqual({
      id: expect.any(Number),
      text: "first\nnote",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    await store.notes.add("grace", "not ada's");
    const second = await store.notes.add("ada", "x".repeat(MAX_NOTE));
    expect(await store.notes.list("ada")).toEqual([second, first]);
    expect(await store.notes.list("nobody")).toEqual([]);
    expect(await store.notes.list("ada", { limit: 1 })).toEqual([second]);
  });

  test("add refuses what validateNote refuses, and no name; nothing is stored", async () => {
    const store = open(await backends[backend]());
    for (const [name, text] of [
      ["ada", ""],
      ["ada", "x".repeat(MAX_NOTE + 1)],
      ["ada", "a\u0000b"],
      ["", "a note"],
    ] as const) {
      expect(store.notes.add(name, text)).rejects.toThrow(TypeError);
    }
    expect(await store.notes.list("ada")).toEqual([]);
  });

  test("a database made before notes and sessions gains their tables at start", async () => {
    const options = await backends[backend]();
    await firstVersionDatabase(options);
    const store = open(options);
    expect(await store.notes.add("ada", "kept")).toMatchObject({ text: "kept" });
    expect(await store.sessions.read("none")).toBeUndefined();
  });
});

describe.each(Object.keys(backends) as Array<keyof typeof backends>)("the app on %s", (backend) => {
  test("a like post: 303 to the guestbook, one more like in /api/guestbook and on the page", async () => {
    const { databaseUrl, dataDir } = await backends[backend]();
    const t = await serveApp({ env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } });
    const post = (path: string, headers: Record<string, string>, body: string) =>
      t.request(path, { method: "POST", headers: { origin: "http://localhost", ...headers }, body });
    const created = await post(
      "/api/guestbook",
      { "content-type": "application/json" },
      JSON.stringify({ name: backend, message: "like me" }),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const liked = await post(
      `/examples/guestbook/${id}/like`,
      { "content-type": "application/x-www-form-urlencoded" },
      "",
    );
    expect(liked.status).toBe(303);
    expect(liked.headers.get("location")).toBe("/examples/guestbook");
    expect((await (await t.request("/api/guestbook")).json()).entries).toEqual([
      { id, name: backend, message: "like me", createdAt: expect.any(String), likes: 1 },
    ]);
    expect(await (await t.request("/examples/guestbook")).text()).toMatch(/<span class="likes"[^>]*>1<\/span>/);
    expect(
      (await post(`/examples/guestbook/${id + 1}/like`, { "content-type": "application/x-www-form-urlencoded" }, ""))
        .status,
    ).toBe(404);
  });
});

describe("SQLite under DATA_DIR", () => {
  test("the folder is made on first use, the file is in WAL mode, and a write lands in the WAL", async () => {
    const dataDir = join(await tempDir(), "a", "b");
    const store = open({ dataDir });
    expect(await stat(dataDir).catch(() => "absent")).toBe("absent");
    await store.guestbook.addEntry({ name: "n", message: "m" });
    expect(store.location).toBe(`sqlite:${join(dataDir, SQLITE_FILE)}`);
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining([SQLITE_FILE, `${SQLITE_FILE}-wal`]));
    const file = new SqliteFile(join(dataDir, SQLITE_FILE), { readonly: true });
    expect(file.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    file.close();
  });

  test("a sqlite:// DATABASE_URL is honoured", async () => {
    const path = join(await tempDir(), "app.db");
    const store = open({ databaseUrl: `sqlite://${path}`, dataDir: await tempDir() });
    await store.guestbook.addEntry({ name: "n", message: "m" });
    expect(store.location).toBe(`sqlite://${path}`);
    expect((await stat(path)).isFile()).toBe(true);
  });

  test("a sqlite:// DATABASE_URL in a folder that does not exist is one line at start", async () => {
    const url = `sqlite://${await tempDir()}/missing/app.db`;
    expect(open({ databaseUrl: url, dataDir: await tempDir() }).ready()).rejects.toThrow(
      `database unavailable: ${url} (SQLITE_CANTOPEN: unable to open database file)`,
    );
  });

  test("processes starting together on one file, new or of the first version, all set it up: none is refused a lock", async () => {
    // Separate processes, as with reusePort: within one process Bun's SQLite runs one statement at a time.
    const storeModule = join(import.meta.dir, "../../src/app/store/store.server.ts");
    for (const firstVersion of [false, true, false, true]) {
      const options = { dataDir: await tempDir() };
      if (firstVersion) await firstVersionDatabase(options);
      const code = `const { openStore } = await import(${JSON.stringify(storeModule)});
        const store = openStore(${JSON.stringify(options)});
        await store.ready();
        await store.close();`;
      const starts = Array.from({ length: 5 }, () =>
        Bun.spawn([process.execPath, "-e", code], { stdout: "ignore", stderr: "pipe" }),
      );
      const ended = await Promise.all(
        starts.map(async (p) => ({
          code: await p.exited,
          stderr: (await new Response(p.stderr).text()).match(/database unavailable.*/)?.[0],
        })),
      );
      expect(ended).toEqual(Array(5).fill({ code: 0, stderr: undefined }));
      expect((await open(options).guestbook.listEntries()).map((e) => e.likes)).toEqual(firstVersion ? [0] : []);
    }
  }, 30_000);

  test("two stores on one file (two processes on a host) interleave writes without losing any", async () => {
    const options = { dataDir: await tempDir() };
    const [a, b] = [open(options), open(options)];
    await Promise.all([a.ready(), b.ready()]);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).guestbook.addEntry({ name: `n${i}`, message: "m" })),
    );
    expect(await a.guestbook.listEntries({ limit: 100 })).toHaveLength(40);
  });

  test("a DATA_DIR that cannot hold the file: one line at start, a rejected promise on a request", async () => {
    const dataDir = join(await tempDir(), "a-file");
    await writeFile(dataDir, "");
    const store = open({ dataDir });
    const error = await store.ready().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(
      new RegExp(`^database unavailable: sqlite:${dataDir}/${SQLITE_FILE} \\(EEXIST: .*\\)$`),
    );
    expect(store.guestbook.listEntries()).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe("PostgreSQL", () => {
  test("a cluster restart keeps the data, and the same store carries on after it", async () => {
    const store = open(await backends.PostgreSQL());
    const entry = await store.guestbook.addEntry({ name: "before", message: "the restart" });
    await pg.stop();
    expect(store.guestbook.listEntries()).rejects.toThrow();
    await pg.start();
    expect(await store.guestbook.listEntries()).toEqual([entry]);
    const after = await store.guestbook.addEntry({ name: "after", message: "the restart" });
    expect(after.id).toBeGreaterThan(entry.id);
  }, 30_000);

  test("unreachable at start: one line naming the database without its password; requests reject; it recovers when the database is back", async () => {
    const url = await pg.createDatabase(`store_${++databases}`);
    const withPassword = url.replace("postgres@", "postgres:hunter2@");
    const store = open({ databaseUrl: withPassword, dataDir: await tempDir() });
    await pg.stop();
    try {
      const error = await store.ready().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      const message = (error as Error).message;
      expect(message).toStartWith(
        `database unavailable: postgres://postgres@127.0.0.1:${pg.port}/store_${databases} (`,
      );
      expect(message).not.toContain("hunter2");
      expect(message).not.toContain("\n");
      expect(store.guestbook.addEntry({ name: "n", message: "m" })).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await pg.start();
    }
    // Trust authentication ignores the password: the same store now sets up and works.
    await store.ready();
    expect(await store.guestbook.addEntry({ name: "n", message: "m" })).toMatchObject({ id: 1 });
  }, 30_000);

  test("a port nobody listens on is one line at start too", async () => {
    const store = open({
      databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/none`,
      dataDir: await tempDir(),
    });
    expect(store.ready()).rejects.toThrow(
      /^database unavailable: postgres:\/\/postgres@127\.0\.0\.1:\d+\/none \(ERR_POSTGRES_CONNECTION_REFUSED/,
    );
  });

  test("a database that does not exist is one line at start", async () => {
    const store = open({ databaseUrl: pg.url.replace(/\/postgres$/, "/missing_db"), dataDir: await tempDir() });
    expect(store.ready()).rejects.toThrow(/^database unavailable: .*\/missing_db \(.*missing_db.*\)$/);
  });
});
