// The example's sessions through the server, kept in its store on SQLite and on a real PostgreSQL: a typed name
// stays a name (the base64 of a session included), sign-out ends the session on the server (a copy of the cookie
// is refused by the account, the API and the nested layout) and shows "Signed out" once, sign-in starts a new
// session, a HEAD leaves the flash for the GET, and sign-out posts without a session add no row to the store.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveApp, type ServedApp } from "brisk/test";
import { BACKENDS, useBackends } from "./backends.ts";
import { sessionCookieOf as cookieOf } from "./session-cookie.ts";

const backends = useBackends("example_sessions");

const HTML = { accept: "text/html" };
const flashIn = (html: string) => /<p id="flash">([^<]*)<\/p>/.exec(html)?.[1];

describe.each(BACKENDS)("the example's sessions on %s", (backend) => {
  let t: ServedApp;
  beforeAll(async () => {
    t = await backends.serve(backend);
  });

  const post = (body: string, cookie = "") =>
    t.request("/examples/session", {
      method: "POST",
      headers: { ...HTML, origin: "http://localhost", "content-type": "application/x-www-form-urlencoded", cookie },
      body,
    });
  const who = async (cookie: string) =>
    (await (await t.request("/api/session", { headers: { cookie } })).json()) as unknown;
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
    const shown = await t.request("/examples/session", { headers: { ...HTML, cookie: cookieOf(signOut) } });
    expect(flashIn(await shown.text())).toBe("Signed out");
    // Read, the notice leaves nothing to keep: the browser drops the cookie, and the next page has no notice.
    expect(shown.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^__Host-session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/),
    ]);
    expect(flashIn(await page("/examples/session", ""))).toBeUndefined();
  });

  test("signing out without a session flashes nothing", async () => {
    const signOut = await post("intent=sign-out");
    expect(signOut.status).toBe(303);
    expect(signOut.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^__Host-session=; Path=\/; Expires=Thu, 01 Jan 1970/),
    ]);
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

describe("sign-out posts without a session on SQLite", () => {
  let dataDir: string;
  let t: ServedApp;
  let db: SQL;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "brisk-signout-flood-"));
    t = await serveApp({ env: { DATA_DIR: dataDir } });
    db = new SQL({ adapter: "sqlite", filename: join(dataDir, "store.sqlite") });
  });
  afterAll(async () => {
    await db?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The rows the store would keep past the ten minutes sqlSessionStore purges every. */
  const lasting = async () => {
    const [row] = await db<
      Array<{ n: number }>
    >`SELECT count(*) AS n FROM sessions WHERE expires_at > ${new Date(Date.now() + 10 * 60 * 1000).toISOString()}`;
    return row!.n;
  };
  const form = (body: string, cookie = "") =>
    t.request("/examples/session", {
      method: "POST",
      headers: { origin: "http://localhost", "content-type": "application/x-www-form-urlencoded", cookie },
      body,
    });

  test("a client posting sign-out with no cookie, again and again, adds no row; a signed-in visitor's sign-out removes theirs", async () => {
    const signedIn = cookieOf(await form("name=Ada"));
    const before = await lasting();
    expect(before).toBeGreaterThan(0);
    // The red team's flood, bounded: each post as the script sent it, no cookie and no notice wanted.
    for (let i = 0; i < 300; i++) expect((await form("intent=sign-out")).status).toBe(303);
    expect(await lasting()).toBe(before);
    expect((await form("intent=sign-out", signedIn)).status).toBe(303);
    expect(await lasting()).toBe(before - 1);
  });
});
