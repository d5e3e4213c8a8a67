// Render-cache invalidations between instances on one real PostgreSQL: what one publishes reaches the others (not
// itself) within a second, whatever its size; a notification lost or committed out of order is found by the poll;
// a restart of the database clears the cache and the bus goes on; a database down at start is waited for; close
// leaves nothing running.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { join } from "node:path";
import type { Invalidation, InvalidationBus } from "../../../src/server/cache/invalidation.ts";
import { startPgInvalidations } from "../../../src/server/cache/pg-invalidations.ts";
import type { LogRecord } from "../../../src/server/monitoring/logger.ts";
import { startPostgres, type Postgres } from "brisk/test";
import { changes, until, within } from "../../support/until.ts";

/** A poll period no test waits out: what arrives within a test's deadline came by NOTIFY. */
const NEVER_POLLS = 600_000;

/** One instance: its bus, and what reached its render cache and its log. */
interface Instance {
  bus: InvalidationBus;
  applied: Invalidation[];
  clears: number;
  logs: LogRecord[];
  /** Resolves once `condition` holds, checked at each apply, clear and log line. */
  until(condition: () => boolean, what: string): Promise<void>;
}

let pg: Postgres;
let pgDown = false;
let databases = 0;
const opened: InvalidationBus[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  pg = await startPostgres();
}, 60_000);

afterEach(async () => {
  if (pgDown) await startPg();
  await Promise.all(opened.splice(0).map((bus) => bus.close()));
  expect(unhandled).toEqual([]);
});

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await pg?.remove();
});

async function stopPg(): Promise<void> {
  await pg.stop();
  pgDown = true;
}

async function startPg(): Promise<void> {
  await pg.start();
  pgDown = false;
}

const newDatabase = () => pg.createDatabase(`invalidations_${++databases}`);

async function instance(url: string, pollMs = NEVER_POLLS): Promise<Instance> {
  const changed = changes();
  const self: Instance = {
    bus: undefined as unknown as InvalidationBus,
    applied: [],
    clears: 0,
    logs: [],
    until: (condition, what) => changed.until(condition, what),
  };
  self.bus = await startPgInvalidations({
    url,
    pollMs,
    cache: {
      apply(invalidation) {
        self.applied.push(invalidation);
        changed.changed();
      },
      clear() {
        self.clears++;
        changed.changed();
      },
    },
    log(record) {
      self.logs.push(record);
      changed.changed();
    },
  });
  opened.push(self.bus);
  return self;
}

/** Resolves with the milliseconds from publishing on `from` until `to` has applied it. */
async function delivered(from: Instance, to: Instance, invalidation: Invalidation): Promise<number> {
  const before = to.applied.length;
  const started = performance.now();
  await from.bus.publish(invalidation);
  await to.until(() => to.applied.length > before, `${JSON.stringify(invalidation).slice(0, 80)} to arrive`);
  const ms = performance.now() - started;
  expect(to.applied.slice(before)).toEqual([invalidation]);
  return ms;
}

const logged = (one: Instance, pattern: RegExp) => one.logs.some((record) => pattern.test(record.msg));

/** A row another instance wrote without a notification, as if the NOTIFY had been lost. */
async function insertSilently(url: string, tags: string[]): Promise<void> {
  await using sql = new SQL(url);
  await sql`INSERT INTO brisk_cache_invalidations (origin, kind, names)
    VALUES ('elsewhere', 'tags', ${JSON.stringify(tags)})`;
}

describe("two instances on one database", () => {
  test("tags published on one reach the other within a second by NOTIFY, and not the publisher", async () => {
    const url = await newDatabase();
    const [a, b] = [await instance(url), await instance(url)];
    const ms = await delivered(a, b, { tags: ["guestbook", "entry:7"] });
    expect(ms).toBeLessThan(1000);
    // Notifications reach a listener in commit order: once b's arrives at a, a's own has come and gone.
    await delivered(b, a, { tags: ["b's"] });
    expect(a.applied).toEqual([{ tags: ["b's"] }]);
    expect(a.clears + b.clears).toBe(0);
  });

  test("paths likewise", async () => {
    const url = await newDatabase();
    const [a, b] = [await instance(url), await instance(url)];
    expect(await delivered(a, b, { paths: ["/examples/popular", "/"] })).toBeLessThan(1000);
  });

  test("an invalidation past a NOTIFY payload's 8000 bytes arrives whole; bytes count, not characters", async () => {
    const url = await newDatabase();
    const [a, b] = [await instance(url), await instance(url)];
    const many = Array.from({ length: 2000 }, (_, i) => `product:${i}`);
    expect(JSON.stringify(many).length).toBeGreaterThan(8000);
    expect(await delivered(a, b, { tags: many })).toBeLessThan(1000);
    // Under 8000 characters, over 8000 bytes: a payload sized by characters is one PostgreSQL refuses.
    const wide = Array.from({ length: 700 }, (_, i) => `€€€${i}`);
    expect(JSON.stringify(wide).length).toBeLessThan(8000);
    expect(Buffer.byteLength(JSON.stringify(wide))).toBeGreaterThan(8000);
    expect(await delivered(a, b, { paths: wide })).toBeLessThan(1000);
  });

  test("a payload on the channel that is not an invalidation is logged and ignored", async () => {
    const url = await newDatabase();
    const [a, b] = [await instance(url), await instance(url)];
    await using sql = new SQL(url);
    await sql.notify("brisk_cache", "not json");
    await sql.notify("brisk_cache", JSON.stringify({ id: "1", origin: "x", tags: [1] }));
    await b.until(() => b.logs.length >= 2, "two warnings");
    expect(b.logs.map((record) => record.msg)).toEqual([
      "cache invalidations: a notification that is not one, ignored",
      "cache invalidations: a notification that is not one, ignored",
    ]);
    await delivered(a, b, { tags: ["after"] });
    expect(b.applied).toEqual([{ tags: ["after"] }]);
  });
});

describe("the poll", () => {
  test("applies a row whose notification was lost, once, and never the instance's own rows", async () => {
    const url = await newDatabase();
    const a = await instance(url, 50);
    const b = await instance(url);
    await delivered(a, b, { tags: ["a's own"] });
    await insertSilently(url, ["lost"]);
    await a.until(() => a.applied.length === 1, "the lost row, by the poll");
    // The next lost row is found by a later poll, which read the first (and a's own) again.
    await insertSilently(url, ["lost too"]);
    await a.until(() => a.applied.length === 2, "the second lost row");
    expect(a.applied).toEqual([{ tags: ["lost"] }, { tags: ["lost too"] }]);
  });

  test("finds a row committed after a row with a higher id", async () => {
    const url = await newDatabase();
    const a = await instance(url, 50);
    await using sql = new SQL(url);
    const early = await sql.reserve();
    try {
      await early`BEGIN`;
      await early`INSERT INTO brisk_cache_invalidations (origin, kind, names)
        VALUES ('elsewhere', 'tags', '["early"]')`;
      await insertSilently(url, ["late"]);
      await a.until(() => a.applied.length === 1, "the row committed first");
      await early`COMMIT`;
    } finally {
      early.release();
    }
    await a.until(() => a.applied.length === 2, "the row with the lower id, committed second");
    expect(a.applied).toEqual([{ tags: ["late"] }, { tags: ["early"] }]);
  });
});

describe("the database going away", () => {
  test("a restart clears the cache once LISTEN is back; publish meanwhile rejects; then all goes on", async () => {
    const url = await newDatabase();
    const [a, b] = [await instance(url), await instance(url)];
    await delivered(a, b, { tags: ["before"] });
    await stopPg();
    await expect(a.bus.publish({ tags: ["while down"] })).rejects.toThrow(/^cache invalidation not published: /);
    await startPg();
    await b.until(() => logged(b, /listening again/), "b to listen again");
    expect(b.clears).toBe(1);
    expect(await delivered(a, b, { tags: ["after"] })).toBeLessThan(1000);
    expect(b.applied).toEqual([{ tags: ["before"] }, { tags: ["after"] }]);
  }, 60_000);

  test("a database down at start: the bus starts, warns, and works once it is up", async () => {
    const url = await newDatabase();
    await stopPg();
    const b = await instance(url, 50);
    expect(b.logs.map((record) => [record.level, record.msg])).toEqual([
      ["warn", "cache invalidations: database unavailable, other instances' invalidations wait; trying again"],
    ]);
    await expect(b.bus.publish({ tags: ["x"] })).rejects.toThrow(/ERR_POSTGRES_CONNECTION_REFUSED/);
    await startPg();
    await b.until(() => logged(b, /reachable again/), "b to reach the database");
    expect(b.clears).toBe(1);
    const a = await instance(url);
    expect(await delivered(a, b, { tags: ["up"] })).toBeLessThan(1000);
  }, 60_000);
});

describe("close", () => {
  test("is idempotent, closes the bus's connections, and publish after it rejects", async () => {
    const url = await newDatabase();
    const b = await instance(url);
    await b.bus.publish({ tags: ["x"] });
    // One connection: the others are the bus's.
    await using sql = new SQL(url, { max: 1 });
    const others = async () => {
      const [row] = await sql`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`;
      return (row as { n: number }).n;
    };
    expect(await others()).toBeGreaterThanOrEqual(2);
    await Promise.all([b.bus.close(), b.bus.close()]);
    await b.bus.close();
    // A backend leaves pg_stat_activity a moment after its client hangs up: nothing announces it.
    await until(async () => (await others()) === 0, "the bus's connections to end");
    await expect(b.bus.publish({ tags: ["x"] })).rejects.toThrow("cache invalidation not published: the bus is closed");
  });

  test("leaves nothing that keeps a process alive, with the database up or down", async () => {
    const url = await newDatabase();
    const module = join(import.meta.dir, "../../../src/server/cache/pg-invalidations.ts");
    const script = `
      import { startPgInvalidations } from ${JSON.stringify(module)};
      const cache = { apply() {}, clear() {} };
      const bus = await startPgInvalidations({ url: process.env.URL, cache, log() {}, pollMs: 20 });
      await bus.publish({ tags: ["x"] }).catch(() => {});
      await Bun.sleep(100);
      await bus.close();
      console.log("closed");`;
    const runs = async (label: string) => {
      const proc = Bun.spawn(["bun", "-e", script], { env: { ...process.env, URL: url }, stdout: "pipe" });
      expect(await within(proc.exited, `the process with the database ${label} to exit`)).toBe(0);
      expect(await new Response(proc.stdout).text()).toBe("closed\n");
    };
    await runs("up");
    await stopPg();
    await runs("down");
  }, 30_000);
});
