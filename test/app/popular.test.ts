// /examples/popular, the render cache's example, through the server: its document and its page data are rendered
// once and kept until a guestbook write (a form post, a like, the JSON API) drops them, then rendered afresh; and on
// two instances sharing one PostgreSQL, a write on one reaches the other's kept page within a second.
import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  serveApp,
  startPostgres,
  startReplicas,
  waitFor,
  type Postgres,
  type Replicas,
  type ServedApp,
} from "brisk/test";
import { keptAfter, type Ask } from "./render-cache.ts";

const PAGES = { document: "/examples/popular", "page data": "/__data/examples/popular" } as const;

/** What the page shows, from either kind of answer, and whether the cache answered it. */
interface Shown {
  count: number;
  /** The most liked entry's id and likes, when one has a like. */
  top: number | undefined;
  likes: number;
  renderedAt: string | undefined;
  cache: string | null;
}

const outputOf = (html: string, id: string) => new RegExp(`<output id="${id}">([^<]*)`).exec(html)?.[1];

async function shown(ask: Ask, path: string): Promise<Shown> {
  const res = await ask(path);
  const body = await res.text();
  expect(res.status).toBe(200);
  const cache = res.headers.get("x-cache");
  if (path.startsWith("/__data/")) {
    const { count, top, renderedAt } = JSON.parse(body).levels[0].data;
    return { count, top: top?.id, likes: top?.likes ?? 0, renderedAt, cache };
  }
  const top = /<output id="top-entry"><a href="\/examples\/guestbook\/(\d+)"/.exec(body)?.[1];
  return {
    count: Number(outputOf(body, "entry-count")),
    top: top === undefined ? undefined : Number(top),
    likes: Number(outputOf(body, "top-likes") ?? 0),
    renderedAt: outputOf(body, "rendered-at"),
    cache,
  };
}

/** Each test asks under a search of its own (the loader reads none): a key no test before it has kept. */
let runs = 0;
const freshKey = (path: string) => `${path}?run=${++runs}`;

const form = (origin: string, body: string): RequestInit => ({
  method: "POST",
  // The 303 itself: fetch over a socket would follow it.
  redirect: "manual",
  headers: { origin, "content-type": "application/x-www-form-urlencoded" },
  body,
});

/** Signs the guestbook through its form, as a browser without JavaScript posts it. */
async function sign(ask: Ask, origin: string, name: string): Promise<void> {
  const res = await ask("/examples/guestbook", form(origin, `name=${name}&message=for+the+popular+page`));
  expect({ status: res.status, location: res.headers.get("location") }).toEqual({
    status: 303,
    location: "/examples/guestbook",
  });
}

/** One like through the like button's form. */
async function like(ask: Ask, origin: string, id: number): Promise<void> {
  const res = await ask(`/examples/guestbook/${id}/like`, form(origin, ""));
  expect(res.status).toBe(303);
}

describe("on one server", () => {
  const ORIGIN = "http://localhost";
  let t: ServedApp;
  let dataDir: string;
  const ask: Ask = (path, init) => t.request(path, init);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "brisk-popular-"));
    t = await serveApp({ env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await t.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  afterEach(() => setSystemTime());

  /** The clock stopped a second later: a page rendered now shows this instant, one rendered before an earlier one. */
  let clock = Date.now();
  const tick = () => {
    setSystemTime((clock += 1000));
    return new Date(clock).toISOString();
  };

  /** The page rendered at one instant and kept, then answered from the cache at the next: the same page. */
  async function keptPage(path: string): Promise<Shown> {
    const renderedAt = tick();
    const miss = await keptAfter(ask, () => shown(ask, path));
    expect(miss).toMatchObject({ cache: "miss", renderedAt });
    tick();
    const hit = await shown(ask, path);
    expect(hit).toEqual({ ...miss, cache: "hit" });
    return hit;
  }

  /** The page after a write: rendered afresh, now. */
  async function afresh(path: string): Promise<Shown> {
    const renderedAt = tick();
    const after = await shown(ask, path);
    expect(after).toMatchObject({ cache: "miss", renderedAt });
    return after;
  }

  describe.each(Object.entries(PAGES))("its %s", (_, page) => {
    test("two GETs without a write: the second is the kept render, with the same #rendered-at", async () => {
      await keptPage(freshKey(page));
    });

    test("a post of the guestbook's form: the next GET counts the entry, rendered afresh", async () => {
      const path = freshKey(page);
      const before = await keptPage(path);
      tick();
      await sign(ask, ORIGIN, "Poster");
      expect((await afresh(path)).count).toBe(before.count + 1);
    });

    test("a like: the next GET shows the liked entry on top, rendered afresh", async () => {
      const path = freshKey(page);
      const created = await ask("/api/guestbook", {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ name: "Liked", message: "one like from the top" }),
      });
      const { id } = (await created.json()) as { id: number };
      // As many likes as the top entry has: a tie, which the older entry wins.
      const { likes } = await shown(ask, freshKey(page));
      for (let i = 0; i < likes; i++) await like(ask, ORIGIN, id);
      const before = await keptPage(path);
      expect(before.top).not.toBe(id);
      tick();
      await like(ask, ORIGIN, id);
      expect(await afresh(path)).toMatchObject({ top: id, likes: likes + 1 });
    });

    test("a post to /api/guestbook: the next GET counts the entry, rendered afresh", async () => {
      const path = freshKey(page);
      const before = await keptPage(path);
      tick();
      const res = await ask("/api/guestbook", {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ name: "Api", message: "through JSON" }),
      });
      expect(res.status).toBe(201);
      expect((await afresh(path)).count).toBe(before.count + 1);
    });
  });
});

describe("on two instances sharing one PostgreSQL", () => {
  let pg: Postgres | undefined;
  let dataDir: string | undefined;
  let replicas: Replicas | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
    dataDir = await mkdtemp(join(tmpdir(), "brisk-popular-replicas-"));
    replicas = await startReplicas(2, { env: { DATABASE_URL: await pg.createDatabase("popular"), DATA_DIR: dataDir } });
  }, 60_000);
  afterAll(async () => {
    await replicas?.stop();
    await pg?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const askOf =
    (origin: string): Ask =>
    (path, init) =>
      fetch(origin + path, init);

  /** The page kept on one instance: a miss, then a hit of the same render. */
  async function keptOn(ask: Ask, path: string): Promise<Shown> {
    const miss = await keptAfter(ask, () => shown(ask, path));
    expect(await shown(ask, path)).toEqual({ ...miss, cache: "hit" });
    return miss;
  }

  /** Asks until the page is rendered afresh; fails unless that came within a second of the write. */
  async function afreshWithinASecond(ask: Ask, path: string, before: Shown): Promise<Shown> {
    const written = performance.now();
    let after = before;
    await waitFor(
      async () => (after = await shown(ask, path)).renderedAt !== before.renderedAt,
      "a fresh render",
      1000,
    );
    expect(performance.now() - written).toBeLessThan(1000);
    expect(after.cache).toBe("miss");
    return after;
  }

  test("a post on the first: the second's kept document counts it within a second", async () => {
    const [a, b] = replicas!.origins as [string, string];
    const path = freshKey(PAGES.document);
    const before = await keptOn(askOf(b), path);
    await sign(askOf(a), a, "Replica");
    expect((await afreshWithinASecond(askOf(b), path, before)).count).toBe(before.count + 1);
  });

  test("a like on the second: the first's kept page data shows the entry on top within a second", async () => {
    const [a, b] = replicas!.origins as [string, string];
    const path = freshKey(PAGES["page data"]);
    const created = await askOf(b)("/api/guestbook", {
      method: "POST",
      headers: { origin: b, "content-type": "application/json" },
      body: JSON.stringify({ name: "Replica", message: "liked on the other instance" }),
    });
    const { id } = (await created.json()) as { id: number };
    const before = await keptOn(askOf(a), path);
    expect(before.top).toBeUndefined();
    await like(askOf(b), b, id);
    expect(await afreshWithinASecond(askOf(a), path, before)).toMatchObject({ top: id, likes: 1 });
  });
});
