// The examples of nested routes and routes without a page, through the server in-process: /examples/nested and its
// children (markup per level, outcomes and errors inside the layout, the signed-in name, loaders side by side),
// the guestbook's RSS feed and its action-only like route.
import { beforeAll, describe, expect, test } from "bun:test";
import { logFor, serveApp, type ServedApp } from "brisk/test";
import { sessionCookieOf, tampered } from "./session-cookie.ts";

let t: ServedApp;
const ORIGIN = "http://localhost";
const HTML = { accept: "text/html" };

beforeAll(async () => {
  t = await serveApp();
});

const html = async (path: string, init?: RequestInit) => {
  const res = await t.request(path, init);
  return { res, html: await res.text() };
};
const loadsIn = (page: string) => Number(/<span id="layout-loads">(\d+)<\/span>/.exec(page)?.[1]);
const whoamiIn = (page: string) => /<span id="whoami">([^<]*)<\/span>/.exec(page)?.[1];

/** The layout's markup, as DESIGN's example routes give it: every page below it carries this. */
function expectLayout(page: string) {
  const nav = /<nav id="nested-nav"[^>]*>([\s\S]*?)<\/nav>/.exec(page)?.[1] ?? "";
  const links = [...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
  expect(links).toEqual(
    expect.arrayContaining([
      "/examples/nested",
      "/examples/nested/items/1",
      "/examples/nested/items/2",
      "/examples/nested/items/404",
      "/examples/nested/broken",
    ]),
  );
  expect(page).toMatch(/<input id="nested-input"[^>]*\/>/);
  expect(loadsIn(page)).toBeGreaterThan(0);
  expect(whoamiIn(page)).toBeDefined();
}

/** What the layout puts in its Outlet. */
const childOf = (page: string) => /<section class="nested-child">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? "";

describe("/examples/nested, a layout and its children", () => {
  test("the index: 200, the layout (nav, input, loads, nobody signed in), then the index child in its Outlet", async () => {
    const { res, html: page } = await html("/examples/nested");
    expect(res.status).toBe(200);
    expectLayout(page);
    expect(whoamiIn(page)).toBe("nobody");
    expect(childOf(page)).toStartWith('<p id="nested-index">');
  });

  test.each(["1", "2", "100"])("items/%s: 200, the item inside the layout", async (id) => {
    const { res, html: page } = await html(`/examples/nested/items/${id}`);
    expect(res.status).toBe(200);
    expectLayout(page);
    expect(childOf(page)).toBe(`<p id="item">Item ${id}</p>`);
  });

  test.each(["404", "0", "101", "01", "abc"])(
    "items/%s: 404, the layout's own not-found inside the layout, not the app's page",
    async (id) => {
      const { res, html: page } = await html(`/examples/nested/items/${id}`);
      expect(res.status).toBe(404);
      expectLayout(page);
      expect(childOf(page)).toContain("Not in this layout");
      expect(page).not.toContain('id="item"');
      expect(page).not.toContain("Page not found");
    },
  );

  test("broken: 500, the error inside the layout with the digest the log line has; the message stays on the server", async () => {
    const { res, html: page } = await html("/examples/nested/broken");
    expect(res.status).toBe(500);
    expectLayout(page);
    const digest = /<p class="digest">Digest: <code>([0-9a-z]+)<\/code><\/p>/.exec(childOf(page))?.[1];
    expect(digest).toBeDefined();
    expect(await logFor(t.logs, res)).toMatchObject({ status: 500, digest, route: "/examples/nested/broken" });
    expect(page).not.toContain("Example failure");
    expect(page).not.toContain("Application error");
  });

  test("every request runs the layout's loader once, and the count says so", async () => {
    const first = loadsIn((await html("/examples/nested")).html);
    const second = loadsIn((await html("/examples/nested/items/1")).html);
    expect(second).toBe(first + 1);
  });

  test("whoami: the name the session example signs in with; a tampered cookie is nobody", async () => {
    const signIn = await t.request("/examples/session", {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "name=Ada+%3Cb%3E",
    });
    expect(signIn.status).toBe(303);
    const cookie = sessionCookieOf(signIn);
    expect(whoamiIn((await html("/examples/nested/items/2", { headers: { cookie } })).html)).toBe("Ada &lt;b&gt;");
    expect(whoamiIn((await html("/examples/nested", { headers: { cookie: tampered(cookie) } })).html)).toBe("nobody");
  });

  test("slow: the layout's and the child's 300 ms loaders run side by side, so it answers in under 550 ms", async () => {
    // Warm, so the time is the loaders' and not a first render's.
    await t.request("/examples/nested/items/1");
    const started = performance.now();
    const { res, html: page } = await html("/examples/nested/slow");
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    expectLayout(page);
    expect(childOf(page)).toStartWith('<p id="slow">');
    // Both waited: a layout that skipped its wait would make this faster than one loader.
    expect(ms).toBeGreaterThanOrEqual(295);
    expect(ms).toBeLessThan(550);
    console.log(`/examples/nested/slow answered in ${Math.round(ms)} ms`);
  });

  test("the layout waits only on the slow path", async () => {
    const started = performance.now();
    expect((await t.request("/examples/nested/items/1")).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

/** One new entry, through the API; resolves with it as stored. */
async function addEntry(
  name: string,
  message: string,
): Promise<{ id: number; name: string; message: string; likes: number }> {
  const res = await t.request("/api/guestbook", {
    method: "POST",
    headers: { origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ name, message }),
  });
  expect(res.status).toBe(201);
  return res.json();
}

describe("POST /examples/nested/bump, an action-only route under the layout", () => {
  const bumpsIn = (page: string) => Number(/<span id="bumps">(\d+)<\/span>/.exec(page)?.[1]);
  const bump = () =>
    t.request("/examples/nested/bump", {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });

  test("adds one and answers 303 to the layout, whose page shows the new count", async () => {
    const before = bumpsIn((await html("/examples/nested")).html);
    const res = await bump();
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/examples/nested");
    expect(bumpsIn((await html("/examples/nested")).html)).toBe(before + 1);
  });

  test("through page data, as a fetcher posts it: the redirect as data, for the client to follow", async () => {
    const res = await t.request("/__data/examples/nested/bump", {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(res.status).toBe(200);
    expect(JSON.parse((await res.text()).split("\n")[0]!).outcome).toEqual({
      kind: "redirect",
      location: "/examples/nested",
      status: 303,
    });
  });
});

describe("/examples/guestbook.rss, a route without a page", () => {
  test("200 application/rss+xml: RSS 2.0 with the newest entries first, each linking its page", async () => {
    const older = await addEntry("Feed one", "first");
    const newer = await addEntry("Feed two", "second");
    const res = await t.request("/examples/guestbook.rss");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await res.text();
    expect(xml).toStartWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"');
    expect(xml).toContain("<channel>\n<title>Brisk guestbook</title>");
    const links = [...xml.matchAll(/<item>\n<title>[^<]*<\/title>\n<link>([^<]+)<\/link>/g)].map((m) => m[1]);
    expect(links.indexOf(`${ORIGIN}/examples/guestbook/${newer.id}`)).toBeLessThan(
      links.indexOf(`${ORIGIN}/examples/guestbook/${older.id}`),
    );
    expect(links.indexOf(`${ORIGIN}/examples/guestbook/${older.id}`)).toBeGreaterThan(-1);
  });

  test("an entry's text is escaped: markup in a name or a message never becomes markup, in the XML or in a reader", async () => {
    const entry = await addEntry(
      `<b>Bold</b> & "quoted" 'name'`,
      "<script>alert(1)</script> & more\nsecond line \uFFFE",
    );
    const xml = await (await t.request("/examples/guestbook.rss")).text();
    const item = xml
      .slice(xml.indexOf(`<link>${ORIGIN}/examples/guestbook/${entry.id}</link>`) - 200)
      .split("</item>")[0]!;
    expect(item).toContain("<title>&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;quoted&quot; &apos;name&apos;</title>");
    // A description is HTML to a reader: the message is escaped as HTML, then that as XML.
    expect(item).toContain(
      "<description>&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt; &amp;amp; more&lt;br&gt;second line \uFFFD</description>",
    );
    expect(xml).not.toContain("<script>");
    expect(xml).not.toContain("\uFFFE");
  });

  test("it has no action: a POST is 405, allowing GET and HEAD", async () => {
    const res = await t.request("/examples/guestbook.rss", { method: "POST", headers: { origin: ORIGIN } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("POST /examples/guestbook/:id/like, an action-only route", () => {
  const like = (id: number | string, origin = ORIGIN, headers: Record<string, string> = {}) =>
    t.request(`/examples/guestbook/${id}/like`, {
      method: "POST",
      headers: { origin, "content-type": "application/x-www-form-urlencoded", ...headers },
      body: "",
    });
  const likesOf = async (id: number) => {
    const { entries } = (await (await t.request("/api/guestbook")).json()) as {
      entries: Array<{ id: number; likes: number }>;
    };
    return entries.find((e) => e.id === id)?.likes;
  };

  test("a like: 303 to /examples/guestbook, one more like in /api/guestbook and on the page", async () => {
    const entry = await addEntry("Liked", "like me");
    expect(entry.likes).toBe(0);
    expect(await likesOf(entry.id)).toBe(0);
    for (const expected of [1, 2]) {
      const res = await like(entry.id);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/examples/guestbook");
      expect(await likesOf(entry.id)).toBe(expected);
    }
    const page = (await html("/examples/guestbook")).html;
    const li = page.slice(page.indexOf(`href="/examples/guestbook/${entry.id}"`)).split("</li>")[0]!;
    expect(li).toMatch(new RegExp(`<form [^>]*action="/examples/guestbook/${entry.id}/like" method="post">`));
    expect(li).toMatch(/<span class="likes"[^>]*>2<\/span>/);
    expect(li).toContain(">Like</button>");
  });

  test("likes at the same moment are all counted", async () => {
    const entry = await addEntry("Popular", "many at once");
    const answers = await Promise.all(Array.from({ length: 12 }, () => like(entry.id)));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(303));
    expect(await likesOf(entry.id)).toBe(12);
  });

  test("a missing entry: 404, JSON for a client, the not-found page for a browser", async () => {
    const json = await like(999_999);
    expect(json.status).toBe(404);
    expect(json.headers.get("content-type")).toStartWith("application/json");
    const page = await like("not-an-id", ORIGIN, HTML);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("Page not found");
  });

  test("GET is 405 with Allow: POST, and likes nothing", async () => {
    const entry = await addEntry("Got", "not liked");
    const res = await t.request(`/examples/guestbook/${entry.id}/like`, { headers: HTML });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await likesOf(entry.id)).toBe(0);
  });

  test("a cross-site like is 403 and likes nothing", async () => {
    const entry = await addEntry("Guarded", "no csrf");
    expect((await like(entry.id, "https://evil.example")).status).toBe(403);
    expect((await like(entry.id, ORIGIN, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(await likesOf(entry.id)).toBe(0);
  });
});

describe("matching: unmatched paths inside the layout, and ranked routes", () => {
  test("/examples/nested/<no child>: 404, the layout around the not-found page", async () => {
    for (const path of ["/examples/nested/nope", "/examples/nested/items/1/deeper/still"]) {
      const { res, html: page } = await html(path, { headers: HTML });
      expect(res.status).toBe(404);
      expectLayout(page);
    }
  });

  test("/examples/files/readme wins over the splat declared before it; the splat takes the rest", async () => {
    expect((await html("/examples/files/readme")).html).toContain('<p id="readme">readme</p>');
    const splat = await html("/examples/files/a/b");
    expect(splat.res.status).toBe(200);
    expect(splat.html).toContain('<p id="splat">a/b</p>');
  });
});
