// The example app as a visitor meets it: the home page lists every example, and public/ and imported
// images are there. The framework's own behaviour is tested on the fixture app (test/server).
import { beforeAll, describe, expect, test } from "bun:test";
import { EXAMPLE_APP_MODULE, testApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await testApp({}, { appModule: EXAMPLE_APP_MODULE });
});

test("the home page links to every example", async () => {
  const html = await (await t.request("/")).text();
  const examples = ["stream", "search?q=brisk", "redirect", "not-found", "forbidden", "unauthorized", "server-error", "render-error"];
  for (const path of [...examples, "late-error", "late-not-found", "client-error", "lazy", "guestbook", "session", "account", "cached"]) {
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
  const SAME_ORIGIN = { origin: "http://localhost" };
  const json = (body: unknown, type = "application/json") => ({ method: "POST", headers: { ...SAME_ORIGIN, "content-type": type }, body: typeof body === "string" ? body : JSON.stringify(body) });

  test("POST /api/guestbook: 201 with Location, then the entry on its page and in the list", async () => {
    const res = await t.request("/api/guestbook", json({ name: "Api", message: "from JSON" }));
    expect(res.status).toBe(201);
    const entry = await res.json();
    expect(res.headers.get("location")).toBe(`/examples/guestbook/${entry.id}`);
    expect(await (await t.request(res.headers.get("location")!)).text()).toContain("from JSON");
    expect((await (await t.request("/api/guestbook")).json()).entries[0]).toMatchObject({ id: entry.id, name: "Api" });
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

  test("a cross-site form post to the guestbook is 403 and stores nothing", async () => {
    const before = (await (await t.request("/api/guestbook")).json()).entries.length;
    const res = await t.request("/examples/guestbook", {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "name=Evil&message=csrf",
    });
    expect(res.status).toBe(403);
    expect((await (await t.request("/api/guestbook")).json()).entries.length).toBe(before);
  });

  test("a missing entry is 404", async () => {
    expect((await t.request("/examples/guestbook/999999")).status).toBe(404);
    expect((await t.request("/examples/guestbook/not-a-number")).status).toBe(404);
  });

  test("the session cookie is signed: the account is 200 with it, 401 without it or tampered", async () => {
    const signIn = await t.request("/examples/session", {
      method: "POST",
      headers: { ...SAME_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "name=Ada",
    });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("location")).toBe("/examples/account");
    const cookie = signIn.headers.getSetCookie().find((c) => c.startsWith("session="))!.split(";")[0]!;
    expect((await t.request("/examples/account", { headers: { cookie } })).status).toBe(200);
    expect((await t.request("/examples/account")).status).toBe(401);
    const tampered = cookie.replace("Ada", "Eve");
    expect(tampered).not.toBe(cookie);
    expect((await t.request("/examples/account", { headers: { cookie: tampered } })).status).toBe(401);
  });

  test("/examples/cached is public for a minute, page and page data", async () => {
    expect((await t.request("/examples/cached")).headers.get("cache-control")).toBe("public, max-age=60");
    expect((await t.request("/__data/examples/cached")).headers.get("cache-control")).toBe("public, max-age=60");
  });
});
