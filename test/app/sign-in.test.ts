// The example's sign-in and its return path, through the server: the account guard sends a browser's page visit
// to /examples/session?next=<that page>, the sign-in form carries `next` through its post (a hidden field), and
// signing in answers 303 to it when it is a path on this site, else to /examples/account; never another site.
import { beforeAll, describe, expect, test } from "bun:test";
import { serveApp, type ServedApp } from "brisk/test";
import { sessionCookieOf as cookieOf } from "./session-cookie.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp();
});

const HTML = { accept: "text/html" };
const SAME_ORIGIN = { origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" };
const hiddenNext = (html: string) => /<input type="hidden" name="next" value="([^"]*)"/.exec(html)?.[1];

const signIn = (fields: Record<string, string>, path = "/examples/session") =>
  t.request(path, {
    method: "POST",
    headers: { ...HTML, ...SAME_ORIGIN },
    body: new URLSearchParams({ name: "Ada", ...fields }).toString(),
  });

describe("signing in with a return path", () => {
  test("next=/examples/account/notes: the form carries it, and signing in is a 303 there, where the notes show", async () => {
    const page = await (
      await t.request("/examples/session?next=%2Fexamples%2Faccount%2Fnotes", { headers: HTML })
    ).text();
    expect(hiddenNext(page)).toBe("/examples/account/notes");
    const res = await signIn(
      { next: "/examples/account/notes" },
      "/examples/session?next=%2Fexamples%2Faccount%2Fnotes",
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/examples/account/notes");
    const notes = await t.request("/examples/account/notes", { headers: { ...HTML, cookie: cookieOf(res) } });
    expect(notes.status).toBe(200);
    expect(await notes.text()).toContain('<ul id="notes">');
  });

  test("posted with JavaScript (page data), the redirect is the return path too", async () => {
    const res = await t.request("/__data/examples/session", {
      method: "POST",
      headers: { ...SAME_ORIGIN, accept: "application/x-ndjson" },
      body: new URLSearchParams({ name: "Ada", next: "/examples/account/notes?x=1#top" }).toString(),
    });
    const payload = JSON.parse((await res.text()).split("\n")[0]!) as { outcome?: unknown };
    expect(payload.outcome).toEqual({ kind: "redirect", location: "/examples/account/notes?x=1#top", status: 303 });
  });

  test.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/%2F%2Fevil.example",
    "/%5Cevil.example",
    "\u0001//evil.example",
    "\u007f//evil.example",
    " //evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
  ])("next=%p: the page offers /examples/account instead, and signing in is a 303 there", async (next) => {
    const page = await (
      await t.request(`/examples/session?next=${encodeURIComponent(next)}`, { headers: HTML })
    ).text();
    expect(hiddenNext(page)).toBe("/examples/account");
    const res = await signIn({ next });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({
      status: 303,
      location: "/examples/account",
    });
  });

  test("without next, or with a file for it, signing in is a 303 to /examples/account", async () => {
    expect((await signIn({})).headers.get("location")).toBe("/examples/account");
    const body = new FormData();
    body.set("name", "Ada");
    body.set("next", new File(["/examples/account/notes"], "/examples/account/notes"));
    const res = await t.request("/examples/session", {
      method: "POST",
      headers: { ...HTML, origin: "http://localhost" },
      body,
    });
    expect({ status: res.status, location: res.headers.get("location") }).toEqual({
      status: 303,
      location: "/examples/account",
    });
  });
});

describe("the account guard's way to sign-in", () => {
  test("a signed-out visit to a page of the account area goes to sign-in with that page (its search too) as next, and back after", async () => {
    const visit = await t.request("/examples/account/notes?sort=old", { headers: HTML });
    expect(visit.status).toBe(307);
    const location = visit.headers.get("location")!;
    expect(location).toBe(`/examples/session?next=${encodeURIComponent("/examples/account/notes?sort=old")}`);
    const page = await t.request(location, { headers: HTML });
    expect(page.status).toBe(200);
    const next = hiddenNext(await page.text())!;
    expect(next).toBe("/examples/account/notes?sort=old");
    const signedIn = await signIn({ next }, location);
    expect(signedIn.headers.get("location")).toBe("/examples/account/notes?sort=old");
    expect(
      (await t.request(signedIn.headers.get("location")!, { headers: { ...HTML, cookie: cookieOf(signedIn) } })).status,
    ).toBe(200);
  });

  test("page data, a post and a request that does not ask for HTML are 401, not a redirect", async () => {
    const refused = [
      await t.request("/__data/examples/account/notes", { headers: { accept: "application/x-ndjson" } }),
      await t.request("/examples/account/notes", {
        method: "POST",
        headers: { ...HTML, ...SAME_ORIGIN },
        body: "text=lost",
      }),
      await t.request("/examples/account/notes.csv"),
      await t.request("/examples/account", { headers: { accept: "application/json" } }),
    ];
    expect(refused.map((res) => [res.status, res.headers.get("location")])).toEqual(Array(4).fill([401, null]));
  });
});
