// session-store.test.tsx: sessions kept in the app's store (createSessionStorage over sqlSessionStore), through the
// real app on SQLite and on a throwaway PostgreSQL: the cookie holds only a signed id, sign-out ends the session on
// the server (a copied cookie is refused after it), renew at sign-in, the age checked whatever the store still
// holds, no flash read by a HEAD, and two app instances on one PostgreSQL (replicas) agreeing.
import { afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import type { SQL } from "bun";
import { Elysia } from "elysia";
import { Outlet, redirect, useLoaderData, type ActionContext, type LoaderContext } from "brisk";
import {
  getSession,
  createSessionStorage,
  requestCookies,
  sqlSessionStore,
  type SessionStorage,
  type SqlSessionStore,
} from "brisk/server";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { createCookieSigner, type CookieSigner } from "../../../src/server/cookies/cookie-signer.ts";
import { createCookies } from "../../../src/server/cookies/cookies.ts";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";
import { SESSION_BACKENDS, useSessionDatabases } from "../../support/session-databases.ts";

type Values = { user: { name: string }; theme: string };
type Flash = { notice: string };

const DAY = 24 * 60 * 60;
const T0 = new Date("2026-03-01T12:00:00Z");
afterEach(() => void setSystemTime());

let signer: CookieSigner;
const { fresh, connection } = useSessionDatabases("session_store");

beforeAll(async () => {
  signer = await createCookieSigner(["a session store test secret, long enough to sign with"]);
});

interface KeptStore extends SqlSessionStore {
  /** Every row, for a test to look at. */
  records(): Promise<Array<{ id: string; data: string }>>;
  /** Keeps a row past its expiry, as a store that has not looked at the time would. */
  keep(id: string): Promise<void>;
}

/** The store on a connection of its own (a replica's). */
function storeOn(connect: () => SQL): KeptStore {
  const sql = connection(connect);
  return Object.assign(sqlSessionStore(sql, { log: () => {} }), {
    records: () => sql<Array<{ id: string; data: string }>>`SELECT id, data FROM sessions ORDER BY id`,
    keep: async (id: string) =>
      void (await sql`UPDATE sessions SET expires_at = ${"2100-01-01T00:00:00.000Z"} WHERE id = ${id}`),
  });
}

/** The app one instance serves: a sign-in, a sign-out, a members' area behind `sessions.requireUser`, and an API route. */
async function serve(store: KeptStore) {
  const sessions: SessionStorage<Values, Flash> = createSessionStorage<Values, Flash>({ store });
  async function signIn({ cookies, body }: ActionContext) {
    const session = await sessions.getSession(cookies);
    await session.renew();
    await session.set("user", { name: body.kind === "form" ? String(body.form.get("name")) : "" });
    await session.flash("notice", "Welcome");
    redirect("/members", { status: 303 });
  }
  async function signOut({ cookies }: ActionContext) {
    const session = await sessions.getSession(cookies);
    await session.destroy();
    await session.flash("notice", "Signed out");
    redirect("/members", { status: 303 });
  }
  async function plant({ cookies }: ActionContext) {
    await (await sessions.getSession(cookies)).set("theme", "planted");
    redirect("/theme", { status: 303 });
  }
  const themeLoader = async ({ cookies }: LoaderContext) => {
    const session = await sessions.getSession(cookies);
    return { theme: session.get("theme") ?? null, notice: (await session.flashed("notice")) ?? null };
  };
  const membersLoader = async ({ cookies }: LoaderContext) => ({ user: await sessions.requireUser(cookies) });
  function Theme() {
    const { theme, notice } = useLoaderData<typeof themeLoader>();
    return <p id="theme">{`${theme} ${notice}`}</p>;
  }
  const Members = () => (
    <>
      <h1 id="member">{useLoaderData<typeof membersLoader>().user.name}</h1>
      <Outlet />
    </>
  );
  const Nothing = () => null;
  const fixture = await loadApp();
  const routes = [
    ...fixture.routes,
    { path: "/sign-in", component: Nothing, action: signIn },
    { path: "/sign-out", component: Nothing, action: signOut },
    { path: "/theme", component: Theme, loader: themeLoader, action: plant },
    {
      path: "/members",
      component: Members,
      loader: membersLoader,
      children: [{ index: true, component: Theme, loader: themeLoader }],
    },
  ];
  const api = new Elysia({ prefix: "/api" }).get("/me", async ({ request }) => ({
    name: (await sessions.requireUser(requestCookies(request))).name,
  }));
  const app = createApp(testConfig(), defineApp({ ...fixture, routes, api }), {
    assets: await clientAssets(),
    cookieSigner: signer,
    log: () => {},
  });
  return (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
}

const post = (cookie = "") => ({
  method: "POST",
  headers: { origin: "http://localhost", "content-type": "application/x-www-form-urlencoded", cookie },
  body: "name=ada",
});
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
/** The id a `__Host-session=<id>.<signature>` cookie carries. */
const idOf = (cookie: string) => cookie.slice("__Host-session=".length).split(".")[0]!;
const html = async (res: Response | Promise<Response>) => (await res).text();

describe.each(SESSION_BACKENDS)("sessions in the app's store on %s", (backend) => {
  let store: KeptStore;
  let request: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    store = storeOn(await fresh(backend));
    request = await serve(store);
  });

  test("the cookie holds only a signed random id, for the store's session's lifetime; the data is in the store", async () => {
    setSystemTime(T0);
    const signIn = await request("/sign-in", post());
    expect(signIn.status).toBe(303);
    const [cookie] = signIn.headers.getSetCookie();
    expect(cookie).toMatch(
      /^__Host-session=[\w-]{43}\.[\w-]{43}; Path=\/; Max-Age=1209600; Secure; HttpOnly; SameSite=Lax$/,
    );
    const id = idOf(cookie!);
    const [record] = (await store.records()).filter((r) => r.id === id);
    expect(JSON.parse(record!.data)).toEqual({
      values: { user: { name: "ada" } },
      flash: { notice: "Welcome" },
      issuedAt: T0.getTime(),
    });
    expect(await html(request("/members", { headers: { cookie: cookieOf(signIn) } }))).toContain(
      '<h1 id="member">ada</h1>',
    );
  });

  test("sign-out deletes the record: a copy of the cookie taken before is refused, and the sign-out's flash shows once", async () => {
    const copy = cookieOf(await request("/sign-in", post()));
    // The sign-in started a purge it does not wait for (an earlier test's row has expired): over before counting.
    await store.purge();
    const before = (await store.records()).length;
    const signOut = await request("/sign-out", post(copy));
    expect(signOut.status).toBe(303);
    // The record gone, and none made for the flash: it waits in the cookie.
    expect((await store.records()).length).toBe(before - 1);
    expect((await store.records()).map((r) => r.id)).not.toContain(idOf(copy));
    expect((await request("/members", { headers: { cookie: copy } })).status).toBe(401);
    expect((await request("/api/me", { headers: { cookie: copy } })).status).toBe(401);
    const after = cookieOf(signOut);
    expect(after).not.toBe(copy);
    const shown = await request("/theme", { headers: { cookie: after } });
    expect(await html(shown)).toContain('<p id="theme">null Signed out</p>');
    // Read, the flash leaves nothing to keep: the cookie goes.
    expect(shown.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^__Host-session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/),
    ]);
  });

  test("a visitor without a session who signs out makes no record: the flash waits in the cookie and shows once", async () => {
    const before = (await store.records()).length;
    const signOuts: Response[] = [];
    for (let i = 0; i < 64; i++) signOuts.push(await request("/sign-out", post()));
    expect(new Set(signOuts.map((res) => res.status))).toEqual(new Set([303]));
    expect((await store.records()).length).toBe(before);
    const [flashed] = signOuts[0]!.headers.getSetCookie();
    // The flash values themselves, signed for that purpose alone: no id, so nothing the store holds.
    expect(flashed).toMatch(
      /^__Host-session=[\w-]{44,}\.[\w-]{43}; Path=\/; Max-Age=\d+; Secure; HttpOnly; SameSite=Lax$/,
    );
    const cookie = cookieOf(signOuts[0]!);
    expect((await request("/api/me", { headers: { cookie } })).status).toBe(401);
    expect(await html(request("/theme", { headers: { cookie } }))).toContain('<p id="theme">null Signed out</p>');
    expect((await store.records()).length).toBe(before);
  });

  test("a session of flash values alone becomes a record when it gets a value, its flash kept in it", async () => {
    const flashOnly = cookieOf(await request("/sign-out", post()));
    const before = (await store.records()).length;
    const planted = await request("/theme", post(flashOnly));
    const cookie = cookieOf(planted);
    expect((await store.records()).length).toBe(before + 1);
    const [record] = (await store.records()).filter((r) => r.id === idOf(cookie));
    expect(JSON.parse(record!.data)).toMatchObject({ values: { theme: "planted" }, flash: { notice: "Signed out" } });
    expect(await html(request("/theme", { headers: { cookie } }))).toContain('<p id="theme">planted Signed out</p>');
  });

  test("a session whose cookie has the old name is read, and the next write moves its id to __Host-session", async () => {
    // What the release before wrote: the id signed under the plain name.
    const old = createCookies(null, { secure: false, signer });
    await (await createSessionStorage<Values, Flash>({ store }).getSession(old)).set("user", { name: "ada" });
    const oldCookie = old.setCookieHeaders()[0]!.split(";")[0]!;
    const id = oldCookie.slice("session=".length).split(".")[0]!;
    expect(await (await request("/api/me", { headers: { cookie: oldCookie } })).json()).toEqual({ name: "ada" });
    const before = (await store.records()).length;
    const moved = await request("/theme", post(oldCookie));
    expect(moved.headers.getSetCookie()).toEqual([
      expect.stringMatching(
        new RegExp(`^__Host-session=${id}\\.[\\w-]{43}; Path=/; Max-Age=\\d+; Secure; HttpOnly; SameSite=Lax$`),
      ),
      expect.stringMatching(/^session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/),
    ]);
    expect((await store.records()).length).toBe(before);
    const cookie = moved.headers.getSetCookie()[0]!.split(";")[0]!;
    expect(await html(request("/members", { headers: { cookie } }))).toContain('<h1 id="member">ada</h1>');
    expect(await html(request("/theme", { headers: { cookie } }))).toContain('<p id="theme">planted null</p>');
  });

  test("signing in starts a new session: a new id, the planted one's record deleted, nothing planted kept", async () => {
    const planted = cookieOf(await request("/theme", post()));
    expect(await html(request("/theme", { headers: { cookie: planted } }))).toContain('<p id="theme">planted null</p>');
    const signedIn = cookieOf(await request("/sign-in", post(planted)));
    expect(idOf(signedIn)).not.toBe(idOf(planted));
    expect((await store.records()).map((r) => r.id)).not.toContain(idOf(planted));
    expect(await html(request("/members", { headers: { cookie: signedIn } }))).toContain(
      '<p id="theme">null Welcome</p>',
    );
    expect((await request("/theme", { headers: { cookie: planted } })).status).toBe(200);
    expect(await html(request("/theme", { headers: { cookie: planted } }))).toContain('<p id="theme">null null</p>');
  });

  test("past its maxAge a session is refused, though the store still returns its record", async () => {
    setSystemTime(T0);
    const cookie = cookieOf(await request("/sign-in", post()));
    await store.keep(idOf(cookie));
    setSystemTime(T0.getTime() + 14 * DAY * 1000 - 1000);
    expect((await request("/api/me", { headers: { cookie } })).status).toBe(200);
    setSystemTime(T0.getTime() + 14 * DAY * 1000);
    expect(await store.read(idOf(cookie))).toBeDefined();
    expect((await request("/api/me", { headers: { cookie } })).status).toBe(401);
  });

  test("a HEAD leaves the flash in the store for the GET", async () => {
    const cookie = cookieOf(await request("/sign-in", post()));
    const head = await request("/members", { method: "HEAD", headers: { cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.getSetCookie()).toEqual([]);
    expect(await html(request("/members", { headers: { cookie } }))).toContain('<p id="theme">null Welcome</p>');
  });

  test("an id signed for anything else never reaches a session: a plain signed cookie, a cookie-kept session, a tampered id", async () => {
    const cookie = cookieOf(await request("/sign-in", post()));
    const id = idOf(cookie);
    const plain = createCookies(null, { secure: true, signer });
    await plain.setSigned("__Host-session", id);
    const cookieKept = createCookies(null, { secure: true, signer });
    await (await getSession(cookieKept)).set("user", { name: "ada" });
    const tampered = cookie.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    const pair = (jar: typeof plain) => jar.setCookieHeaders()[0]!.split(";")[0]!;
    for (const forged of [pair(plain), pair(cookieKept), `__Host-session=${id}`, tampered]) {
      expect({ forged, status: (await request("/api/me", { headers: { cookie: forged } })).status }).toEqual({
        forged,
        status: 401,
      });
    }
  });
});

describe("two app instances on one PostgreSQL (replicas)", () => {
  test("a session made on one is read on the other; signed out on the other, the first refuses a copy of its cookie", async () => {
    const connect = await fresh("PostgreSQL");
    const [a, b] = [await serve(storeOn(connect)), await serve(storeOn(connect))];
    const copy = cookieOf(await a("/sign-in", post()));
    expect(await (await b("/api/me", { headers: { cookie: copy } })).json()).toEqual({ name: "ada" });
    expect((await b("/sign-out", post(copy))).status).toBe(303);
    expect((await a("/api/me", { headers: { cookie: copy } })).status).toBe(401);
    expect((await b("/members", { headers: { cookie: copy } })).status).toBe(401);
  });

  test("a write from a request that read the session before another replica signed it out does not bring it back", async () => {
    const connect = await fresh("PostgreSQL");
    const [a, b] = [await serve(storeOn(connect)), await serve(storeOn(connect))];
    const copy = cookieOf(await a("/sign-in", post()));
    // The flash is read (a write) on A after B signed out: what A writes changes no record.
    const store = storeOn(connect);
    const reading = createCookies(copy, { secure: true, signer });
    const sessions = createSessionStorage<Values, Flash>({ store });
    const session = await sessions.getSession(reading);
    expect((await b("/sign-out", post(copy))).status).toBe(303);
    expect(await session.flashed("notice")).toBe("Welcome");
    await session.set("theme", "dark");
    expect((await a("/api/me", { headers: { cookie: copy } })).status).toBe(401);
  });
});

describe("one request, one kind of session per cookie", () => {
  test("a cookie-kept session and a stored one asking for the same cookie: the second rejects, naming the cookie", async () => {
    const store = storeOn(await fresh("SQLite"));
    const cookies = createCookies(null, { secure: false, signer });
    await createSessionStorage({ store }).getSession(cookies);
    expect(getSession(cookies)).rejects.toThrow(
      "session: the session cookie already holds another kind of session in this request",
    );
  });

  test("a maxAge that is not a positive number of seconds is refused when the storage is made", async () => {
    const store = storeOn(await fresh("SQLite"));
    expect(() => createSessionStorage({ store, maxAge: 0 })).toThrow(
      "session: maxAge must be a positive number of seconds, not 0",
    );
  });
});
