// The example app as a visitor meets it, through the server in-process: every example's status, public/ and
// imported images, the guestbook's form and API, the session, the cache header and the prerendered pages.
import { beforeAll, describe, expect, test } from "bun:test";
import { serveApp, type ServedApp } from "brisk/test";
import { EXAMPLES } from "../../src/app/pages/examples.ts";
import { sessionCookieOf, tampered } from "./session-cookie.ts";

let t: ServedApp;
const SAME_ORIGIN = { origin: "http://localhost" };
const form = (body: string, origin = SAME_ORIGIN.origin) => ({
  method: "POST",
  headers: { origin, "content-type": "application/x-www-form-urlencoded" },
  body,
});
const entries = async (): Promise<Array<{ id: number; name: string; message: string }>> =>
  (await (await t.request("/api/guestbook")).json()).entries;

beforeAll(async () => {
  t = await serveApp();
  // The listed entry page, /examples/guestbook/1, needs one entry: ids start at 1 and are never reused.
  expect(
    (
      await t.request("/api/guestbook", {
        method: "POST",
        headers: { ...SAME_ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ name: "First", message: "an entry" }),
      })
    ).status,
  ).toBe(201);
});

/** DESIGN.md's example routes, as a visitor without a session meets them. */
const STATUS: Record<string, number> = {
  "/": 200,
  "/examples/stream": 200,
  "/examples/search?q=brisk": 200,
  "/examples/redirect": 307,
  "/examples/not-found": 404,
  "/examples/forbidden": 403,
  "/examples/unauthorized": 401,
  "/examples/server-error": 500,
  "/examples/render-error": 500,
  "/examples/late-error": 200,
  "/examples/late-not-found": 200,
  "/examples/instant": 200,
  "/examples/client-error": 200,
  "/examples/lazy": 200,
  "/examples/guestbook": 200,
  "/examples/guestbook/1": 200,
  "/examples/guestbook/999999": 404,
  "/examples/api-client": 200,
  "/api/guestbook": 200,
  "/api/boom": 500,
  "/examples/session": 200,
  "/examples/account": 401,
  "/examples/account/notes": 401,
  "/examples/account/notes.csv": 401,
  "/examples/cached": 200,
  "/examples/popular": 200,
  "/examples/shell": 200,
  "/examples/types": 200,
  "/examples/proto": 200,
  "/examples/guestbook.rss": 200,
  "/examples/preview?name=Ada&message=Hello%20%3Cb%3E": 200,
  "/examples/nested": 200,
  "/examples/nested/items/1": 200,
  "/examples/nested/items/2": 200,
  "/examples/nested/items/404": 404,
  "/examples/nested/broken": 500,
  "/examples/nested/slow": 200,
  "/examples/nested/no/such/child": 404,
  "/examples/files/a/b": 200,
  "/examples/files/readme": 200,
  "/robots.txt": 200,
  "/favicon.ico": 200,
  "/no/such/page": 404,
};

test("every example the home page lists has its status here", () => {
  for (const { href } of EXAMPLES) expect({ href, status: STATUS[href] }).toEqual({ href, status: expect.any(Number) });
});

test.each(Object.entries(STATUS))("%s answers %i", async (path, status) => {
  expect((await t.request(path)).status).toBe(status);
});

test("the home page links to every example", async () => {
  const html = await (await t.request("/")).text();
  const examples = [
    "stream",
    "search?q=brisk",
    "redirect",
    "not-found",
    "forbidden",
    "unauthorized",
    "server-error",
    "render-error",
  ];
  const more = [
    "late-error",
    "late-not-found",
    "instant",
    "client-error",
    "lazy",
    "guestbook",
    "guestbook.rss",
    "session",
    "account",
    "cached",
    "types",
    "proto",
  ];
  for (const path of [
    ...examples,
    ...more,
    "nested",
    "nested/items/1",
    "nested/items/404",
    "nested/broken",
    "nested/slow",
  ]) {
    expect(html).toContain(`href="/examples/${path}"`);
  }
});

test("robots.txt and the favicon come from public/, and the document links the icon", async () => {
  const robots = await t.request("/robots.txt");
  expect(robots.status).toBe(200);
  expect(await robots.text()).toContain("User-agent");
  const icon = await t.request("/favicon.ico");
  expect(icon.status).toBe(200);
  expect(icon.headers.get("content-type")).toBe("image/x-icon");
  expect(await (await t.request("/")).text()).toContain('<link rel="icon" href="/favicon.ico"/>');
});

test("the home page's logo is an imported image, served from /assets/", async () => {
  const html = await (await t.request("/")).text();
  const src = /<img class="logo" src="(\/assets\/brisk-logo-[a-z0-9]+\.svg)"/.exec(html)?.[1];
  expect(src).toBeDefined();
  const res = await t.request(src!);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("immutable");
});

describe("the guestbook, its API and the session, through the server", () => {
  const json = (body: unknown, type = "application/json") => ({
    method: "POST",
    headers: { ...SAME_ORIGIN, "content-type": type },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

  test("POST /api/guestbook: 201 with Location, then the entry on its page and in the list", async () => {
    const res = await t.request("/api/guestbook", json({ name: "Api", message: "from JSON" }));
    expect(res.status).toBe(201);
    const entry = await res.json();
    expect(res.headers.get("location")).toBe(`/examples/guestbook/${entry.id}`);
    expect(await (await t.request(res.headers.get("location")!)).text()).toContain("from JSON");
    expect((await entries())[0]).toMatchObject({ id: entry.id, name: "Api" });
  });

  test("POST /api/guestbook: 422 naming the fields, 400 malformed, 415 not JSON or a form", async () => {
    const invalid = await t.request("/api/guestbook", json({ name: "", message: "x".repeat(501) }));
    expect(invalid.status).toBe(422);
    expect(Object.keys((await invalid.json()).fields).sort()).toEqual(["message", "name"]);
    const wrongShape = await t.request("/api/guestbook", json({ name: 1 }));
    expect(wrongShape.status).toBe(422);
    expect((await t.request("/api/guestbook", json("{bad"))).status).toBe(400);
    const text = await t.request("/api/guestbook", json("name=a", "text/plain"));
    expect(text.status).toBe(415);
    expect(text.headers.get("content-type")).toStartWith("application/json");
  });

  test("signing the guestbook's form: 303 back to the list, which shows the entry first", async () => {
    const res = await t.request("/examples/guestbook", form("name=Form&message=signed+by+a+form"));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/examples/guestbook");
    expect((await entries())[0]).toMatchObject({ name: "Form", message: "signed by a form" });
    expect(await (await t.request("/examples/guestbook")).text()).toContain("signed by a form");
  });

  test("an invalid form post: 422, the page with each field's error and the typed values kept, nothing stored", async () => {
    const before = (await entries()).length;
    const res = await t.request("/examples/guestbook", form(`name=Kept+name&message=${"x".repeat(501)}`));
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('id="message-error"');
    expect(html).toContain("Message must be at most 500 characters");
    expect(html).toContain('value="Kept name"');
    expect(html).toContain("x".repeat(501));
    expect((await entries()).length).toBe(before);
  });

  test("a cross-site form post to the guestbook is 403 and stores nothing", async () => {
    const before = (await entries()).length;
    const res = await t.request("/examples/guestbook", form("name=Evil&message=csrf", "https://evil.example"));
    expect(res.status).toBe(403);
    expect((await entries()).length).toBe(before);
  });

  test("a missing entry is 404", async () => {
    expect((await t.request("/examples/guestbook/999999")).status).toBe(404);
    expect((await t.request("/examples/guestbook/not-a-number")).status).toBe(404);
  });

  test("the session cookie is a signed id: the account is 200 with it, 401 without it or tampered", async () => {
    const signIn = await t.request("/examples/session", form("name=Ada"));
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("location")).toBe("/examples/account");
    const cookie = sessionCookieOf(signIn);
    expect((await t.request("/examples/account", { headers: { cookie } })).status).toBe(200);
    expect((await t.request("/examples/account")).status).toBe(401);
    const forged = tampered(cookie);
    expect(forged).not.toBe(cookie);
    expect((await t.request("/examples/account", { headers: { cookie: forged } })).status).toBe(401);
    // The API reads the same session: a forged cookie is nobody.
    const who = async (headers: HeadersInit) =>
      (await (await t.request("/api/session", { headers })).json()) as unknown;
    expect(await who({ cookie })).toEqual({ name: "Ada" });
    expect(await who({ cookie: forged })).toEqual({ name: null });
    expect(await who({ cookie: "session=Ada" })).toEqual({ name: null });
    expect(await who({})).toEqual({ name: null });
  });

  test("/examples/cached is public for a minute, page and page data", async () => {
    expect((await t.request("/examples/cached")).headers.get("cache-control")).toBe("public, max-age=60");
    expect((await t.request("/__data/examples/cached")).headers.get("cache-control")).toBe("public, max-age=60");
  });
});

test("the pages marked prerender are stored once rendered: a weak ETag, and 304 when it matches", async () => {
  await t.prerendered();
  for (const path of ["/", "/examples/lazy"]) {
    const res = await t.request(path);
    expect(res.status).toBe(200);
    const etag = res.headers.get("etag");
    expect(etag).toStartWith('W/"');
    expect((await t.request(path, { headers: { "if-none-match": etag! } })).status).toBe(304);
  }
});
