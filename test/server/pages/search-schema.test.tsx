// search-schema.test.tsx: a route's `search` schema, on a small app through app.handle: each field taken from the
// URL, converted and checked, its default where it is missing or invalid; a 400 naming the field otherwise, on the
// document and in page data, after the middleware and before the action and loaders; the parse as `query` in
// loaders, actions and middleware, and in the page through useRouteSearch.
import { beforeAll, describe, expect, test } from "bun:test";
import { t } from "elysia";
import { parse } from "devalue";
import { Link, Outlet, route, unauthorized, useRouteSearch, type BadRequestPageProps } from "brisk";
import type { LogRecord } from "brisk/server";
import { logFor } from "brisk/test";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";

const listSearch = t.Object({
  page: t.Integer({ minimum: 1, default: 1 }),
  size: t.Numeric({ maximum: 50, default: 10 }),
  sort: t.Optional(t.Union([t.Literal("new"), t.Literal("old")])),
  tags: t.Array(t.String(), { default: [] }),
  open: t.Optional(t.Boolean()),
});
const needSearch = t.Object({ q: t.String(), n: t.Number(), ids: t.Optional(t.Array(t.Integer())) });
const dateSearch = t.Object({ when: t.Optional(t.Date()) });
const shopSearch = t.Object({ currency: t.Union([t.Literal("eur"), t.Literal("usd")], { default: "eur" }) });
const feedSearch = t.Object({ limit: t.Integer() });

const actions: unknown[] = [];
const loaderRuns: string[] = [];

function List() {
  const [query, , searchHref] = useRouteSearch(listRoute);
  return (
    <main>
      <pre id="query">{JSON.stringify(query)}</pre>
      <Link id="next" to={searchHref({ page: query.page + 1, tags: ["x", "y"], sort: undefined })}>
        next
      </Link>
    </main>
  );
}

const listRoute = route("/list", {
  search: listSearch,
  component: List,
  loader: ({ query, search }) => {
    loaderRuns.push("list");
    return { page: query.page, other: search.get("utm") };
  },
  action: ({ query }) => void actions.push(query),
});

const needRoute = route("/need", {
  search: needSearch,
  component: () => <p>need</p>,
  // Reads the parse after it has said it ran: a refused search would throw from the read.
  loader: (ctx) => {
    loaderRuns.push("need");
    return { q: ctx.query.q };
  },
});

/** A guard that refuses without a header, and a middleware that reads the parse. */
const vaultRoute = route("/vault", {
  search: needSearch,
  middleware: [
    ({ request }) => void (request.headers.get("x-key") === "k" || unauthorized()),
    ({ query, setHeader }) => setHeader("x-q", query.q),
  ],
  component: () => <p>vault</p>,
  loader: () => void loaderRuns.push("vault"),
});

function ShopItem() {
  const [shop] = useRouteSearch(shopRoute);
  return <p id="currency">{shop.currency}</p>;
}

function Stray() {
  const [list] = useRouteSearch(listRoute);
  return <p>{list.page}</p>;
}

function ShopBadRequest({ message }: BadRequestPageProps) {
  return <p id="shop-bad">{`shop: ${message}`}</p>;
}

const shopRoute = route("/shop", {
  search: shopSearch,
  component: () => (
    <section id="shop">
      <Outlet />
    </section>
  ),
  loader: () => ({ shop: true }),
  fallbacks: { "bad-request": ShopBadRequest },
  children: (child) => [
    child("item", { search: needSearch, component: ShopItem, loader: ({ query }) => ({ q: query.q }) }),
  ],
});

const dateRoute = route("/date", {
  search: dateSearch,
  component: () => <p>date</p>,
  loader: ({ query }) => ({ when: query.when }),
});
const feedRoute = route("/feed.json", {
  search: feedSearch,
  // Reads the parse after it has said it ran: a refused search would throw from the read.
  loader: (ctx) => {
    loaderRuns.push("feed");
    return { limit: ctx.query.limit };
  },
});
const plainRoute = route("/plain", {
  component: () => <p>plain</p>,
  loader: ({ query }) => ({ keys: Object.keys(query) }),
});
const strayRoute = route("/stray", { component: Stray });

const ROUTES = [listRoute, needRoute, vaultRoute, shopRoute, dateRoute, feedRoute, plainRoute, strayRoute];

type Request = (path: string, init?: RequestInit) => Promise<Response>;
let request: Request;
let withAppPage: Request;
const captured: unknown[] = [];
const logged: LogRecord[] = [];

beforeAll(async () => {
  const fixture = await loadApp();
  const assets = await clientAssets();
  const deps = {
    assets,
    capture: (error: unknown) => void captured.push(error),
    log: (line: LogRecord) => void logged.push(line),
  };
  const app = createApp(testConfig(), defineApp({ ...fixture, routes: [...ROUTES, ...fixture.routes] }), deps);
  request = (path, init) => app.handle(new Request(`http://localhost${path}`, init));
  const badRequest = ({ message }: BadRequestPageProps) => <p id="app-bad">{`app: ${message}`}</p>;
  const own = createApp(
    testConfig(),
    defineApp({
      ...fixture,
      routes: [...ROUTES, ...fixture.routes],
      fallbacks: { ...fixture.fallbacks, "bad-request": badRequest },
    }),
    deps,
  );
  withAppPage = (path, init) => own.handle(new Request(`http://localhost${path}`, init));
});

const DATA = { headers: { accept: "application/x-ndjson" } };
const head = async (res: Response) => {
  const [line] = (await res.text()).split("\n");
  return line!.startsWith("[") ? parse(line!) : JSON.parse(line!);
};
const queryOf = async (path: string) => (await head(await request(`/__data${path}`, DATA))).levels[0].query;
const unescape = (html: string) => html.replaceAll("&quot;", '"').replaceAll("&amp;", "&");

describe("each field of the schema", () => {
  test("a missing field takes its default; an optional one stays absent", async () => {
    expect(await queryOf("/list")).toEqual({ page: 1, size: 10, tags: [] });
  });

  test("a value is converted by its schema: integers, t.Numeric, booleans, literals, and every value of an array's key", async () => {
    expect(await queryOf("/list?page=3&size=20&sort=old&open=true&tags=a&tags=b")).toEqual({
      page: 3,
      size: 20,
      sort: "old",
      tags: ["a", "b"],
      open: true,
    });
  });

  test("a value the schema refuses takes the field's default", async () => {
    expect(await queryOf("/list?page=abc&size=99")).toEqual({ page: 1, size: 10, tags: [] });
    expect(await queryOf("/list?page=0&size=-")).toEqual({ page: 1, size: 10, tags: [] });
  });

  test("only the first value of a key whose schema is no array counts", async () => {
    expect((await queryOf("/list?page=2&page=5")).page).toBe(2);
  });

  test("unknown keys are left out of the parse and left in the search", async () => {
    const res = await request("/__data/list?utm=mail&page=2&x=1", DATA);
    const { levels } = await head(res);
    expect(levels[0].query).toEqual({ page: 2, size: 10, tags: [] });
    expect(levels[0].data).toEqual({ page: 2, other: "mail" });
  });

  test("thousands of other parameters are no bad request", async () => {
    const noise = Array.from({ length: 3000 }, (_, i) => `k${i}=${i}`).join("&");
    expect(await queryOf(`/list?${noise}&page=4`)).toEqual({ page: 4, size: 10, tags: [] });
  });

  test("a route without a schema gets an empty query, and its level carries none", async () => {
    const { levels } = await head(await request("/__data/plain?a=1", DATA));
    expect(levels[0]).toEqual({ id: "/plain", data: { keys: [] } });
  });
});

describe("a search the schema refuses", () => {
  test("a required field without a default, missing: 400 naming it, on the document and in page data, and no loader runs", async () => {
    loaderRuns.length = 0;
    const res = await request("/need?n=1");
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("<h1>Bad request</h1><p>q: required</p>");
    expect(html).not.toContain(" at ");
    const data = await request("/__data/need?n=1", DATA);
    expect(data.status).toBe(400);
    expect((await head(data)).outcome).toEqual({ kind: "bad-request", status: 400, message: "q: required" });
    expect(loaderRuns).toEqual([]);
    expect(await (await request("/need?n=1&q=x")).text()).toContain("<p>need</p>");
    expect(loaderRuns).toEqual(["need"]);
  });

  test("an invalid value without a default: 400 saying what the field takes", async () => {
    const res = await request("/need?q=x&n=abc");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("<p>n: expected a number</p>");
    const union = await request("/__data/list?sort=bogus", DATA);
    expect(union.status).toBe(400);
    expect((await head(union)).outcome.message).toBe('sort: expected "new" or "old"');
    const list = await request("/__data/need?q=x&n=1&ids=1&ids=z", DATA);
    expect((await head(list)).outcome.message).toBe("ids: expected an integer for each value");
  });

  test("the status is 400 before any byte, never reported as an error, logged as a request with that status", async () => {
    captured.length = 0;
    logged.length = 0;
    const res = await request("/need?q=x&n=abc");
    expect(res.status).toBe(400);
    await res.text();
    expect(await logFor(logged, res)).toMatchObject({ level: "info", path: "/need", status: 400 });
    expect(captured).toEqual([]);
  });

  test("the app's bad-request page shows the message when it gives one", async () => {
    const res = await withAppPage("/need?n=1");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<p id="app-bad">app: q: required</p>');
  });

  test("a route's own bad-request fallback shows it inside the layouts above, whose search parsed", async () => {
    const res = await request("/shop/item?n=1");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('<section id="shop"><p id="shop-bad">shop: q: required</p></section>');
    const page = await head(await request("/__data/shop/item?n=1&currency=usd", DATA));
    expect(page.boundary).toEqual({ id: "/shop", depth: 1 });
    expect(page.levels).toEqual([
      { id: "/shop", data: { shop: true }, query: { currency: "usd" } },
      { id: "/shop/item" },
    ]);
  });

  test("a guard's 401 comes before the 400, and a middleware reads the parse", async () => {
    expect((await request("/vault?n=1")).status).toBe(401);
    const refused = await request("/vault?n=1", { headers: { "x-key": "k" } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("<p>q: required</p>");
    loaderRuns.length = 0;
    const through = await request("/vault?q=hello&n=1", { headers: { "x-key": "k" } });
    expect(through.status).toBe(200);
    expect(through.headers.get("x-q")).toBe("hello");
    expect(loaderRuns).toEqual(["vault"]);
  });

  test("a route without a page answers its 400 as JSON naming the field, before its loader runs", async () => {
    loaderRuns.length = 0;
    const res = await request("/feed.json?limit=many");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "bad request", message: "limit: expected an integer" });
    expect(loaderRuns).toEqual([]);
    expect(await (await request("/feed.json?limit=5")).json()).toEqual({ limit: 5 });
  });

  test("a schema whose parse JSON cannot carry is the app's mistake: a 500, reported", async () => {
    captured.length = 0;
    const res = await request("/date?when=2026-11-29");
    expect(res.status).toBe(500);
    expect(captured.map(String)).toEqual([
      'Error: The search field "when" parses to something JSON does not carry: a search schema takes strings, numbers, booleans, literals and arrays of them',
    ]);
  });
});

describe("loaders, actions and components read the parse", () => {
  test("an action gets the parse of its route's schema", async () => {
    actions.length = 0;
    const res = await request("/list?page=7&sort=new", {
      method: "POST",
      headers: { origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(res.status).toBeLessThan(400);
    expect(actions).toEqual([{ page: 7, size: 10, sort: "new", tags: [] }]);
  });

  test("the page renders the parse and a link with some fields changed, other parameters kept", async () => {
    const html = unescape(await (await request("/list?utm=mail&page=2&sort=old&tags=q")).text());
    expect(html).toContain('<pre id="query">{"page":2,"size":10,"sort":"old","tags":["q"]}</pre>');
    expect(html).toContain('href="/list?utm=mail&page=3&tags=x&tags=y"');
  });

  test("a page reads a layout's parse and its own; a level the client keeps still carries its new parse", async () => {
    const html = await (await request("/shop/item?q=x&n=1&currency=usd")).text();
    expect(html).toContain('<p id="currency">usd');
    const kept = await head(await request("/__data/shop/item?q=x&n=1&currency=usd&_keep=1", DATA));
    expect(kept.levels[0]).toEqual({ id: "/shop", kept: true, query: { currency: "usd" } });
    expect(kept.levels[1].query).toEqual({ q: "x", n: 1 });
  });
});

test("reading the search of a route that is not on the page is the error page, reported", async () => {
  captured.length = 0;
  expect((await request("/stray")).status).toBe(500);
  expect(captured.map(String)).toEqual(["Error: useRouteSearch: the route /list is not on this page"]);
});
