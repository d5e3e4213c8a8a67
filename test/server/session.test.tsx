// session.test.tsx: the session helper on signed cookies (values, flash values read once, destroy, the size
// limit, secret rotation) and the signed-in guard, in a layout's loader (the 401 page) and an API route (401 JSON),
// with pages and the API sharing one session.
import { beforeAll, describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { getSession, Outlet, redirect, requireUser, useLoaderData, type ActionContext, type Cookies, type LoaderContext } from "brisk";
import { getSession as serverGetSession, requestCookies, requireUser as serverRequireUser } from "brisk/server";
import { defineApp } from "../../src/runtime/app-definition.ts";
import { createApp } from "../../src/server/create-app.ts";
import { createCookieSigner, type CookieSigner } from "../../src/server/sessions/cookie-signer.ts";
import { createCookies } from "../../src/server/sessions/cookies.ts";
import { clientAssets, loadApp, testConfig } from "../support/app.ts";

const SECRET = "a session test secret that is long enough to sign with";
const NEWER = "a newer session secret, first in the rotation order";

type User = { name: string };
type Values = { user: User; theme: string; notice: string };

let signer: CookieSigner;
beforeAll(async () => {
  signer = await createCookieSigner([SECRET]);
});

const jar = (cookie: string | null = null, by: CookieSigner = signer) => createCookies(cookie, { secure: true, signer: by });
/** The Cookie header the browser sends next, from what a request set. */
const next = (cookies: Cookies) =>
  cookies
    .setCookieHeaders()
    .map((header) => header.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

describe("a session in one signed cookie", () => {
  test("a value set in one request reads back in the next; the cookie is signed, HttpOnly and Lax", async () => {
    const first = jar();
    await (await getSession<Values>(first)).set("theme", "dark");
    expect(first.setCookieHeaders()).toEqual([expect.stringMatching(/^session=[\w-]+\.[\w-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax$/)]);
    const session = await getSession<Values>(jar(next(first)));
    expect(session.get("theme")).toBe("dark");
    expect(session.get("user")).toBeUndefined();
  });

  test("values are JSON: objects, numbers and non-ASCII text come back as they went", async () => {
    const first = jar();
    const session = await getSession(first);
    await session.set("user", { name: "Zoë 🐙", visits: 3, admin: false, tags: ["a"] });
    expect((await getSession(jar(next(first)))).get("user")).toEqual({ name: "Zoë 🐙", visits: 3, admin: false, tags: ["a"] });
  });

  test("a forged, unsigned or foreign-signed session reads as empty", async () => {
    const first = jar();
    await (await getSession<Values>(first)).set("user", { name: "ada" });
    const pair = next(first);
    const value = pair.slice("session=".length);
    const forged = `session=${value.slice(0, 4)}${value[4] === "A" ? "B" : "A"}${value.slice(5)}`;
    const foreign = jar(null, await createCookieSigner(["another site's secret, long enough to sign with"]));
    await (await getSession<Values>(foreign)).set("user", { name: "eve" });
    for (const cookie of [forged, `session=${value.split(".")[0]}`, next(foreign)]) {
      expect((await getSession<Values>(jar(cookie))).get("user")).toBeUndefined();
    }
  });

  test("rotation: a session signed with the old secret reads with [new, old], and is written back with the new", async () => {
    const old = jar();
    await (await getSession<Values>(old)).set("user", { name: "ada" });
    const rotated = await createCookieSigner([NEWER, SECRET]);
    const now = jar(next(old), rotated);
    const session = await getSession<Values>(now);
    expect(session.get("user")).toEqual({ name: "ada" });
    await session.set("theme", "light");
    const onlyNewer = await createCookieSigner([NEWER]);
    expect((await getSession<Values>(jar(next(now), onlyNewer))).get("user")).toEqual({ name: "ada" });
    // Retired: once SECRET is gone from COOKIE_SECRET, a session it signed is no session.
    expect((await getSession<Values>(jar(next(old), onlyNewer))).get("user")).toBeUndefined();
  });

  test("the loaders of one request share one session: what one sets, the other reads", async () => {
    const cookies = jar();
    const [layout, page] = await Promise.all([getSession<Values>(cookies), getSession<Values>(cookies)]);
    expect(layout).toBe(page);
    await Promise.all([layout.set("theme", "dark"), page.set("user", { name: "ada" })]);
    const after = await getSession<Values>(jar(next(cookies)));
    expect([after.get("theme"), after.get("user")]).toEqual(["dark", { name: "ada" }]);
  });

  test("unset drops one value; destroy deletes the cookie", async () => {
    const first = jar();
    const session = await getSession<Values>(first);
    await session.set("theme", "dark");
    await session.set("user", { name: "ada" });
    await session.unset("theme");
    const second = jar(next(first));
    const again = await getSession<Values>(second);
    expect([again.get("theme"), again.get("user")]).toEqual([undefined, { name: "ada" }]);
    await again.destroy();
    expect(again.get("user")).toBeUndefined();
    expect(second.setCookieHeaders()).toEqual([expect.stringMatching(/^session=; Path=\/; Expires=Thu, 01 Jan 1970/)]);
  });

  test("another cookie name and options: its own session beside the default one", async () => {
    const cookies = jar();
    await (await getSession(cookies, { name: "prefs", maxAge: 3600, sameSite: "strict" })).set("theme", "dark");
    expect(cookies.setCookieHeaders()).toEqual([expect.stringMatching(/^prefs=[^;]+; Path=\/; Max-Age=3600; Secure; HttpOnly; SameSite=Strict$/)]);
    expect((await getSession(jar(next(cookies)))).get("theme")).toBeUndefined();
    expect((await getSession(jar(next(cookies)), { name: "prefs" })).get("theme")).toBe("dark");
  });
});

describe("flash values are read once", () => {
  test("flashed in one request, read in the next, gone in the one after", async () => {
    const action = jar();
    await (await getSession<Values>(action)).flash("notice", "Saved!");
    const page = jar(next(action));
    expect(await (await getSession<Values>(page)).flashed("notice")).toBe("Saved!");
    expect(await (await getSession<Values>(jar(next(page)))).flashed("notice")).toBeUndefined();
  });

  test("every reader in the request that reads it gets it; requests that do not read it leave it", async () => {
    const action = jar();
    await (await getSession<Values>(action)).flash("notice", "Saved!");
    const elsewhere = jar(next(action));
    expect((await getSession<Values>(elsewhere)).get("user")).toBeUndefined();
    expect(elsewhere.setCookieHeaders()).toEqual([]);
    const page = jar(next(action));
    const session = await getSession<Values>(page);
    expect(await Promise.all([session.flashed("notice"), session.flashed("notice")])).toEqual(["Saved!", "Saved!"]);
  });

  test("a flash value is not a value: get does not see it, and values stay when it is read", async () => {
    const action = jar();
    const session = await getSession<Values>(action);
    await session.set("user", { name: "ada" });
    await session.flash("notice", "Welcome");
    expect(session.get("notice")).toBeUndefined();
    const page = jar(next(action));
    await (await getSession<Values>(page)).flashed("notice");
    expect((await getSession<Values>(jar(next(page)))).get("user")).toEqual({ name: "ada" });
  });
});

describe("the 4 KB a browser keeps", () => {
  test("a write that would pass it is refused with a clear error, and the session keeps what it had", async () => {
    const cookies = jar();
    const session = await getSession<Values>(cookies);
    await session.set("theme", "dark");
    const error = await session.set("notice", "x".repeat(4000)).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^session: the session cookie would be \d{4} bytes, over the 4096 browsers keep/);
    expect(session.get("notice")).toBeUndefined();
    expect((await getSession<Values>(jar(next(cookies)))).get("theme")).toBe("dark");
  });

  test("a session just under the limit is written whole", async () => {
    const cookies = jar();
    const session = await getSession<Values>(cookies);
    // JSON {"values":{"notice":"…"},"flash":{}} in base64url, the signature after it, within 4096 bytes.
    await session.set("notice", "x".repeat(2950));
    const pair = next(cookies);
    expect(pair.length).toBeLessThanOrEqual(4096);
    expect((await getSession<Values>(jar(pair))).get("notice")).toHaveLength(2950);
  });
});

describe("brisk/server gives API routes the same helpers", () => {
  test("one function, both names", () => {
    expect(serverGetSession).toBe(getSession);
    expect(serverRequireUser).toBe(requireUser);
  });
});

// A members' area through the real app: a layout whose loader requires a signed-in visitor, its index page
// showing a flash value after a save, and API routes on the same session.
async function membersLoader({ cookies }: LoaderContext) {
  return { user: await requireUser<User>(cookies) };
}

async function membersHomeLoader({ cookies }: LoaderContext) {
  return { notice: (await (await getSession<Values>(cookies)).flashed("notice")) ?? null };
}

async function saveAction({ cookies }: ActionContext) {
  await (await getSession<Values>(cookies)).flash("notice", "Saved!");
  redirect("/members", { status: 303 });
}

async function signInAction({ cookies, body }: ActionContext) {
  const name = body.kind === "form" ? String(body.form.get("name")) : "";
  await (await getSession<Values>(cookies)).set("user", { name });
  redirect("/members", { status: 303 });
}

function Members() {
  const { user } = useLoaderData<typeof membersLoader>();
  return (
    <section>
      <p id="member">{user.name}</p>
      <Outlet />
    </section>
  );
}

function MembersHome() {
  const { notice } = useLoaderData<typeof membersHomeLoader>();
  return <p id="notice">{notice ?? "nothing new"}</p>;
}

const MembersOnly = () => <p id="members-only">Members only: sign in first</p>;
const SignIn = () => <form method="post" />;

const api = new Elysia({ prefix: "/api" })
  .get("/me", async ({ request }) => ({ name: (await requireUser<User>(requestCookies(request))).name }))
  .post(
    "/sign-in",
    async ({ request, body }) => {
      await (await getSession<Values>(requestCookies(request))).set("user", { name: body.name });
      return { ok: true };
    },
    { body: t.Object({ name: t.String() }) },
  )
  // A sign-in form posted without JavaScript: the session, then a 303 to the members' area.
  .post("/sign-in-form", async ({ request, body }) => {
    await (await getSession<Values>(requestCookies(request))).set("user", { name: String((body as { name?: unknown }).name) });
    redirect("/members", { status: 303 });
  })
  .post("/sign-out", async ({ request }) => {
    await (await getSession(requestCookies(request))).destroy();
    return { ok: true };
  });

describe("the guard and the session in pages and API routes", () => {
  let request: (path: string, init?: RequestInit) => Promise<Response>;
  beforeAll(async () => {
    const fixture = await loadApp();
    const routes = [
      ...fixture.routes,
      { path: "/sign-in", component: SignIn, action: signInAction },
      {
        path: "/members",
        component: Members,
        loader: membersLoader,
        fallbacks: { unauthorized: MembersOnly },
        children: [{ index: true, component: MembersHome, loader: membersHomeLoader, action: saveAction }],
      },
    ];
    const app = createApp(testConfig(), defineApp({ ...fixture, routes, api }), { assets: await clientAssets(), cookieSigner: signer, log: () => {} });
    request = (path, init) => app.handle(new Request(`http://localhost${path}`, init));
  });

  const SAME_ORIGIN = { origin: "http://localhost" };
  const form = (body: string, cookie = "") => ({
    method: "POST",
    headers: { ...SAME_ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie },
    body,
  });
  const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");

  test("signed out: the layout's guard answers the 401 page, the route's own fallback", async () => {
    const res = await request("/members");
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain('<p id="members-only">Members only: sign in first</p>');
    expect(html).not.toContain('id="member"');
  });

  test("signed out: the same guard in an API route answers 401 JSON", async () => {
    const res = await request("/api/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(await res.json()).toEqual({ error: "unauthorized" });
  });

  test("signed in by a page's action: the layout shows the visitor, and the API knows them", async () => {
    const signIn = await request("/sign-in", form("name=ada"));
    expect(signIn.status).toBe(303);
    const cookie = cookieOf(signIn);
    const page = await request("/members", { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<p id="member">ada</p>');
    expect(await (await request("/api/me", { headers: { cookie } })).json()).toEqual({ name: "ada" });
  });

  test("signed in through the API: the pages know them; signed out through it, they do not", async () => {
    const signIn = await request("/api/sign-in", { method: "POST", headers: { ...SAME_ORIGIN, "content-type": "application/json" }, body: '{"name":"grace"}' });
    const cookie = cookieOf(signIn);
    expect(await (await request("/members", { headers: { cookie } })).text()).toContain('<p id="member">grace</p>');
    const signOut = await request("/api/sign-out", { method: "POST", headers: { ...SAME_ORIGIN, cookie } });
    expect(signOut.headers.getSetCookie()[0]).toMatch(/^session=; Path=\/; Expires=/);
    expect((await request("/members", { headers: { cookie: cookieOf(signOut) } })).status).toBe(401);
  });

  test("an API route that sets the session and then redirects sends the session with its 303", async () => {
    const res = await request("/api/sign-in-form", form("name=lin"));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/members");
    expect(await (await request("/members", { headers: { cookie: cookieOf(res) } })).text()).toContain('<p id="member">lin</p>');
  });

  test("a save's flash shows once on the page after the redirect, then is gone", async () => {
    const cookie = cookieOf(await request("/sign-in", form("name=ada")));
    const save = await request("/members", form("", cookie));
    expect(save.status).toBe(303);
    const shown = await request("/members", { headers: { cookie: cookieOf(save) } });
    expect(await shown.text()).toContain('<p id="notice">Saved!</p>');
    const again = await request("/members", { headers: { cookie: cookieOf(shown) } });
    const html = await again.text();
    expect(html).toContain('<p id="notice">nothing new</p>');
    expect(html).toContain('<p id="member">ada</p>');
  });

  test("a forged session is signed out: 401 page and 401 JSON", async () => {
    const cookie = cookieOf(await request("/sign-in", form("name=ada")));
    const forged = cookie.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    expect((await request("/members", { headers: { cookie: forged } })).status).toBe(401);
    expect((await request("/api/me", { headers: { cookie: forged } })).status).toBe(401);
  });
});
