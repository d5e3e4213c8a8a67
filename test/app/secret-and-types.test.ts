// The session page's "Reveal the secret" and /examples/types, through the server in-process: the secret is the
// action's for a signed-in visitor only (the 401 page otherwise, as the browser's own post gets it), and the
// types page renders the loader's Date, Set, Map, BigInt, URL and undefined as what they are.
import { beforeAll, describe, expect, test } from "bun:test";
import { serveApp, type ServedApp } from "brisk/test";
import { sessionCookieOf, tampered } from "./session-cookie.ts";

let t: ServedApp;
const ORIGIN = "http://localhost";
const HTML = { accept: "text/html" };

beforeAll(async () => {
  t = await serveApp();
});

/** A form post to `path` as a browser sends it, from this site unless `origin` says otherwise. */
const post = (path: string, body: string, headers: Record<string, string> = {}, origin = ORIGIN) =>
  t.request(path, {
    method: "POST",
    headers: { ...HTML, origin, "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });

/** Signs in as `name`; resolves with the `session` cookie, as a `cookie` header's value. */
async function signIn(name: string): Promise<string> {
  const res = await post("/examples/session", `name=${encodeURIComponent(name)}`);
  expect(res.status).toBe(303);
  return sessionCookieOf(res);
}

const secretIn = (html: string) => /<p id="secret">([^<]*)<\/p>/.exec(html)?.[1];

describe("/examples/session: Reveal the secret", () => {
  test("the page has the fetcher's form: a post to the page's action, intent reveal, the button", async () => {
    const html = await (await t.request("/examples/session", { headers: HTML })).text();
    const form = /<form [^>]*class="reveal"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    expect(form?.[0]).toMatch(/action="\/examples\/session"/);
    expect(form?.[0]).toMatch(/method="post"/);
    expect(form?.[1]).toContain('<input type="hidden" name="intent" value="reveal"/>');
    expect(form?.[1]).toMatch(/<button type="submit"[^>]*>Reveal the secret<\/button>/);
    expect(secretIn(html)).toBeUndefined();
  });

  test("signed out, the post is 401: the sign-in page, no secret", async () => {
    const res = await post("/examples/session", "intent=reveal");
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain("Sign-in required");
    expect(secretIn(html)).toBeUndefined();
    expect(html).not.toContain("Only you can read this");
  });

  test("signed in, the post is 200: the session page again, with the secret for that name", async () => {
    const cookie = await signIn("Ada");
    const res = await post("/examples/session", "intent=reveal", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(secretIn(html)).toBe(
      "Only you can read this, Ada: the session cookie is signed, so nobody else can be you.",
    );
    expect(html).toContain('class="signed-in"');
    // Revealing is not signing in again: the cookie is left as it was.
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test("a forged cookie is nobody: 401", async () => {
    const cookie = await signIn("Ada");
    // The session's id with a character more: its signature no longer holds.
    const forged = tampered(cookie);
    expect(forged).not.toBe(cookie);
    const res = await post("/examples/session", "intent=reveal", { cookie: forged });
    expect(res.status).toBe(401);
    expect(secretIn(await res.text())).toBeUndefined();
    expect((await post("/examples/session", "intent=reveal", { cookie: "session=Ada" })).status).toBe(401);
  });

  test("from another site it is refused (403) before the action runs", async () => {
    const cookie = await signIn("Ada");
    const res = await post("/examples/session", "intent=reveal", { cookie }, "https://evil.example");
    expect(res.status).toBe(403);
    expect(secretIn(await res.text())).toBeUndefined();
  });

  test("signing in still works beside it: a blank name is 422 with the message, nothing revealed", async () => {
    const res = await post("/examples/session", "name=+++");
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('<p class="field-error">A name is 1 to 80 characters</p>');
    expect(secretIn(html)).toBeUndefined();
  });
});

describe("/examples/types: loader data that JSON would not carry", () => {
  test("200, and the page computes with each value: 0|true|1|11|example.com|true", async () => {
    const res = await t.request("/examples/types", { headers: HTML });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<output id="types">0|true|1|11|example.com|true</output>');
    expect(html).toContain("<title>Data on the wire · Brisk</title>");
  });

  test("its page data answers too, for a client navigation", async () => {
    const res = await t.request("/__data/examples/types");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/x-ndjson");
  });

  test("the home page links to it", async () => {
    expect(await (await t.request("/")).text()).toContain('href="/examples/types"');
  });
});
