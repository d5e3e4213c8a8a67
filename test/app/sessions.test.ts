// The example's sessions through the server, kept in its store on SQLite and on a real PostgreSQL: a typed name
// stays a name (the base64 of a session included), sign-out ends the session on the server (a copy of the cookie
// is refused by the account, the API and the nested layout) and shows "Signed out" once, sign-in starts a new
// session, and a HEAD leaves the flash for the GET.
import { beforeAll, describe, expect, test } from "bun:test";
import type { ServedApp } from "brisk/test";
import { BACKENDS, useBackends } from "./backends.ts";

const backends = useBackends("example_sessions");

const HTML = { accept: "text/html" };
const cookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("session="))!.split(";")[0]!;
const flashIn = (html: string) => /<p id="flash">([^<]*)<\/p>/.exec(html)?.[1];

describe.each(BACKENDS)("the example's sessions on %s", (backend) => {
  let t: ServedApp;
  beforeAll(async () => {
    t = await backends.serve(backend);
  });

  const post = (body: string, cookie = "") =>
    t.request("/examples/session", { method: "POST", headers: { ...HTML, origin: "http://localhost", "content-type": "application/x-www-form-urlencoded", cookie }, body });
  const who = async (cookie: string) => (await (await t.request("/api/session", { headers: { cookie } })).json()) as unknown;
  const page = async (path: string, cookie: string) => (await t.request(path, { headers: { ...HTML, cookie } })).text();

  test("a name typed as the base64 of an admin's session signs in that name, not admin", async () => {
    const token = Buffer.from(JSON.stringify({ values: { user: { name: "admin" } }, flash: {} })).toString("base64url");
    const signIn = await post(`name=${token}`);
    expect(signIn.status).toBe(303);
    const cookie = cookieOf(signIn);
    expect(await who(cookie)).toEqual({ name: token });
    expect(await page("/examples/account", cookie)).toContain(`<p id="account-name">Signed in as ${token}</p>`);
  });

  test("signing out ends the session: a copy of the cookie is nobody everywhere, and 'Signed out' shows once", async () => {
    const copy = cookieOf(await post("name=Ada"));
    expect(await who(copy)).toEqual({ name: "Ada" });
    const signOut = await post("intent=sign-out", copy);
    expect(signOut.status).toBe(303);
    expect(signOut.headers.get("location")).toBe("/examples/session");
    expect((await t.request("/examples/account", { headers: { cookie: copy } })).status).toBe(401);
    expect(await who(copy)).toEqual({ name: null });
    expect(await page("/examples/nested", copy)).toContain('<span id="whoami">nobody</span>');
    expect((await post("intent=reveal", copy)).status).toBe(401);
    const after = cookieOf(signOut);
    expect(flashIn(await page("/examples/session", after))).toBe("Signed out");
    expect(flashIn(await page("/examples/session", after))).toBeUndefined();
  });

  test("a HEAD of the session page leaves 'Signed out' for the GET", async () => {
    const after = cookieOf(await post("intent=sign-out", cookieOf(await post("name=Ada"))));
    const head = await t.request("/examples/session", { method: "HEAD", headers: { ...HTML, cookie: after } });
    expect(head.status).toBe(200);
    expect(head.headers.getSetCookie()).toEqual([]);
    expect(flashIn(await page("/examples/session", after))).toBe("Signed out");
  });

  test("signing in starts a new session: another id, and the flash of the session before it is gone", async () => {
    const signedOut = cookieOf(await post("intent=sign-out", cookieOf(await post("name=Ada"))));
    const signedIn = cookieOf(await post("name=Grace", signedOut));
    expect(signedIn).not.toBe(signedOut);
    expect(await who(signedOut)).toEqual({ name: null });
    expect(await who(signedIn)).toEqual({ name: "Grace" });
    const html = await page("/examples/session", signedIn);
    expect(flashIn(html)).toBeUndefined();
    expect(html).toContain("Signed in as <strong>Grace</strong>");
  });
});
