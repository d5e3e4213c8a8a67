// session.test.tsx: the session kept in its cookie (values, flash values read once, destroy, the size limit,
// secret rotation), what makes it a credential (its signature bound to its purpose, its age checked on the
// server, renew at sign-in, no flash read by a HEAD) and the signed-in guard, in a layout's loader (the 401 page)
// and an API route (401 JSON), with pages and the API sharing one session.
import { afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { Elysia, t } from "elysia";
import {
  createRouterContext,
  data,
  Outlet,
  redirect,
  useLoaderData,
  type ActionContext,
  type Cookies,
  type LoaderContext,
  type Middleware,
  unauthorized,
} from "brisk";
import { getSession, requestCookies, requireUser, SessionTooLargeError, type SessionOptions } from "brisk/server";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { createCookieSigner, type CookieSigner } from "../../../src/server/cookies/cookie-signer.ts";
import { createCookies } from "../../../src/server/cookies/cookies.ts";
import type { LogRecord } from "../../../src/server/monitoring/logger.ts";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";

const SECRET = "a session test secret that is long enough to sign with";
const NEWER = "a newer session secret, first in the rotation order";

type User = { name: string };
type Values = { user: User; theme: string; notice: string; nickname: string };

const DAY = 24 * 60 * 60;
const T0 = new Date("2026-03-01T12:00:00Z");
afterEach(() => void setSystemTime());

let signer: CookieSigner;
beforeAll(async () => {
  signer = await createCookieSigner([SECRET]);
});

const jar = (cookie: string | null = null, by: CookieSigner = signer, method = "GET") =>
  createCookies(cookie, { secure: true, signer: by }, method);
/** The Cookie header the browser sends next, from what a request set. */
const next = (cookies: Cookies) =>
  cookies
    .setCookieHeaders()
    .map((header) => header.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

describe("a session in one signed cookie", () => {
  test("a value set in one request reads back in the next; the cookie is signed, HttpOnly and Lax", async () => {
    // The clock stands still: the cookie's Max-Age is the whole seconds left, which a tick would make one less.
    setSystemTime(T0);
    const first = jar();
    await (await getSession<Values>(first)).set("theme", "dark");
    expect(first.setCookieHeaders()).toEqual([
      expect.stringMatching(
        /^__Host-session=[\w-]+\.[\w-]{43}; Path=\/; Max-Age=1209600; Secure; HttpOnly; SameSite=Lax$/,
      ),
    ]);
    const session = await getSession<Values>(jar(next(first)));
    expect(session.get("theme")).toBe("dark");
    expect(session.get("user")).toBeUndefined();
  });

  test("values are JSON: objects, numbers and non-ASCII text come back as they went", async () => {
    const first = jar();
    const session = await getSession(first);
    await session.set("user", { name: "Zoë 🐙", visits: 3, admin: false, tags: ["a"] });
    expect((await getSession(jar(next(first)))).get("user")).toEqual({
      name: "Zoë 🐙",
      visits: 3,
      admin: false,
      tags: ["a"],
    });
  });

  test("a forged, unsigned or foreign-signed session reads as empty", async () => {
    const first = jar();
    await (await getSession<Values>(first)).set("user", { name: "ada" });
    const pair = next(first);
    const value = pair.slice("__Host-session=".length);
    const forged = `__Host-session=${value.slice(0, 4)}${value[4] === "A" ? "B" : "A"}${value.slice(5)}`;
    const foreign = jar(null, await createCookieSigner(["another site's secret, long enough to sign with"]));
    await (await getSession<Values>(foreign)).set("user", { name: "eve" });
    for (const cookie of [forged, `__Host-session=${value.split(".")[0]}`, next(foreign)]) {
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
    expect(second.setCookieHeaders()).toEqual([
      expect.stringMatching(/^__Host-session=; Path=\/; Expires=Thu, 01 Jan 1970/),
    ]);
  });

  test("another cookie name and options: its own session beside the default one", async () => {
    setSystemTime(T0);
    const cookies = jar();
    await (await getSession(cookies, { name: "prefs", maxAge: 3600, sameSite: "strict" })).set("theme", "dark");
    expect(cookies.setCookieHeaders()).toEqual([
      expect.stringMatching(/^__Host-prefs=[^;]+; Path=\/; Max-Age=3600; Secure; HttpOnly; SameSite=Strict$/),
    ]);
    expect((await getSession(jar(next(cookies)))).get("theme")).toBeUndefined();
    expect((await getSession(jar(next(cookies)), { name: "prefs" })).get("theme")).toBe("dark");
  });
});

/** The session a request sets `user` to `name` in, as the Cookie header the browser sends next. */
async function signedIn(name: string, secure = true) {
  const cookies = createCookies(null, { secure, signer });
  await (await getSession<Values>(cookies)).set("user", { name });
  return next(cookies);
}

const namesSet = (cookies: Cookies) => cookies.setCookieHeaders().map((header) => header.slice(0, header.indexOf("=")));

describe("the session cookie's __Host- name", () => {
  test("Secure with Path=/ and no Domain: __Host-<name>; without Secure (COOKIE_SECURE=false), on another path or a Domain: the name as given", async () => {
    const cases: Array<[secure: boolean, options: SessionOptions, name: string]> = [
      [true, {}, "__Host-session"],
      [true, { name: "prefs" }, "__Host-prefs"],
      [false, { secure: true }, "__Host-session"],
      [false, {}, "session"],
      [true, { secure: false }, "session"],
      [true, { path: "/shop" }, "session"],
      [true, { domain: "example.com" }, "session"],
      [true, { name: "__Host-own" }, "__Host-own"],
      [true, { name: "__Secure-own" }, "__Secure-own"],
    ];
    for (const [secure, options, name] of cases) {
      const cookies = createCookies(null, { secure, signer });
      await (await getSession<Values>(cookies, options)).set("theme", "dark");
      expect({ secure, options, names: namesSet(cookies) }).toEqual({ secure, options, names: [name] });
      const back = await getSession<Values>(createCookies(next(cookies), { secure, signer }), options);
      expect({ secure, options, theme: back.get("theme") }).toEqual({ secure, options, theme: "dark" });
    }
  });

  test("a session under the old name is read while the new one is absent; reading sets nothing, the next write moves it", async () => {
    const old = await signedIn("ada", false);
    expect(old).toStartWith("session=");
    const upgraded = jar(old);
    const session = await getSession<Values>(upgraded);
    expect(session.get("user")).toEqual({ name: "ada" });
    expect(upgraded.setCookieHeaders()).toEqual([]);
    await session.set("theme", "dark");
    expect(upgraded.setCookieHeaders()).toEqual([
      expect.stringMatching(/^__Host-session=[\w-]+\.[\w-]{43}; Path=\/; Max-Age=\d+; Secure; HttpOnly; SameSite=Lax$/),
      expect.stringMatching(/^session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/),
    ]);
    const after = await getSession<Values>(jar(next(upgraded)));
    expect([after.get("user"), after.get("theme")]).toEqual([{ name: "ada" }, "dark"]);
  });

  test("with both names only the new one counts, forged or not, and a write expires the old", async () => {
    const [bob, alice] = [await signedIn("bob", false), await signedIn("alice")];
    // A sibling subdomain's `session` cookie, sent first as a more specific path would be.
    const both = jar(`${bob}; ${alice}`);
    const session = await getSession<Values>(both);
    expect(session.get("user")).toEqual({ name: "alice" });
    await session.set("theme", "dark");
    expect(namesSet(both)).toEqual(["__Host-session", "session"]);
    const forged = alice.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    expect((await getSession<Values>(jar(`${bob}; ${forged}`))).get("user")).toBeUndefined();
  });

  test("destroy expires the session under both names", async () => {
    const cookies = jar(await signedIn("ada", false));
    await (await getSession<Values>(cookies)).destroy();
    expect(cookies.setCookieHeaders()).toEqual([
      expect.stringMatching(/^__Host-session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure/),
      expect.stringMatching(/^session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/),
    ]);
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
  test("a write that would pass it rejects with SessionTooLargeError naming the limit, and the session keeps what it had", async () => {
    const cookies = jar();
    const session = await getSession<Values>(cookies);
    await session.set("theme", "dark");
    const error = await session.set("notice", "x".repeat(4000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionTooLargeError);
    expect((error as SessionTooLargeError).bytes).toBeGreaterThan(4096);
    expect(error).toMatchObject({ name: "SessionTooLargeError", cookie: "__Host-session", limit: 4096 });
    expect((error as Error).message).toMatch(
      /^session: the __Host-session cookie would be \d{4} bytes, over the 4096 browsers keep/,
    );
    expect(session.get("notice")).toBeUndefined();
    expect((await getSession<Values>(jar(next(cookies)))).get("theme")).toBe("dark");
  });

  test("a session just under the limit is written whole", async () => {
    const cookies = jar();
    const session = await getSession<Values>(cookies);
    // JSON {"values":{"notice":"…"},"flash":{},"issuedAt":…} in base64url, the signature after it, within 4096 bytes.
    await session.set("notice", "x".repeat(2930));
    const pair = next(cookies);
    expect(pair.length).toBeLessThanOrEqual(4096);
    expect((await getSession<Values>(jar(pair))).get("notice")).toHaveLength(2930);
  });
});

/** base64url of a session's JSON as a visitor would type it into a form. */
const typedSession = (stored: object) => Buffer.from(JSON.stringify(stored)).toString("base64url");

describe("a session's signature covers its purpose", () => {
  test("a value setSigned under the session's name, new or old, even a session's JSON, never reads as a session: it stays a value", async () => {
    const tokens = [
      typedSession({ values: { user: { name: "admin" } }, flash: {}, issuedAt: Date.now() }),
      typedSession({ values: { user: { name: "admin" } }, flash: {} }),
    ];
    for (const name of ["__Host-session", "session"]) {
      for (const token of tokens) {
        const signIn = jar();
        await signIn.setSigned(name, token);
        expect((await getSession<Values>(jar(next(signIn)))).get("user")).toBeUndefined();
        expect(await jar(next(signIn)).getSigned(name)).toBe(token);
      }
    }
  });

  test("a session, one holding only a flash value too, never reads as a getSigned value", async () => {
    const anonymous = jar();
    await (await getSession<Values>(anonymous)).flash("notice", "Saved!");
    const signedIn = jar();
    await (await getSession<Values>(signedIn)).set("user", { name: "ada" });
    for (const cookies of [anonymous, signedIn])
      expect(await jar(next(cookies)).getSigned("__Host-session")).toBeUndefined();
  });

  test("plain signed cookies keep verifying as they did: HMAC of name=value, the first secret signing, every secret verifying", async () => {
    const old = jar();
    await old.setSigned("session", "ada");
    expect(next(old)).toBe(
      `session=ada.${new Bun.CryptoHasher("sha256", SECRET).update("session=ada").digest("base64url")}`,
    );
    expect(await jar(next(old), await createCookieSigner([NEWER, SECRET])).getSigned("session")).toBe("ada");
  });
});

describe("a session's age is checked on the server", () => {
  test("14 days from its issue unless told: a second before, it reads; from then on it is empty, whatever the browser sends", async () => {
    setSystemTime(T0);
    const signIn = jar();
    await (await getSession<Values>(signIn)).set("user", { name: "ada" });
    setSystemTime(T0.getTime() + 14 * DAY * 1000 - 1000);
    expect((await getSession<Values>(jar(next(signIn)))).get("user")).toEqual({ name: "ada" });
    setSystemTime(T0.getTime() + 14 * DAY * 1000);
    const late = jar(next(signIn));
    const session = await getSession<Values>(late);
    expect(session.get("user")).toBeUndefined();
    // Reading it writes nothing; a write starts a new session, issued now, without the old values.
    expect(late.setCookieHeaders()).toEqual([]);
    await session.set("theme", "dark");
    expect(late.setCookieHeaders()).toEqual([expect.stringContaining("; Max-Age=1209600;")]);
    expect((await getSession<Values>(jar(next(late)))).get("user")).toBeUndefined();
  });

  test("writes keep the issue time: the cookie's Max-Age is the time left, not a fresh 14 days", async () => {
    setSystemTime(T0);
    const signIn = jar();
    await (await getSession<Values>(signIn)).set("user", { name: "ada" });
    setSystemTime(T0.getTime() + 10 * DAY * 1000 + 400);
    const later = jar(next(signIn));
    await (await getSession<Values>(later)).set("theme", "dark");
    expect(later.setCookieHeaders()).toEqual([expect.stringContaining(`; Max-Age=${4 * DAY - 1};`)]);
    setSystemTime(T0.getTime() + 14 * DAY * 1000);
    expect((await getSession<Values>(jar(next(later)))).get("theme")).toBeUndefined();
  });

  test("maxAge sets the lifetime, checked the same way", async () => {
    setSystemTime(T0);
    const cookies = jar();
    await (await getSession<Values>(cookies, { maxAge: 3600 })).set("user", { name: "ada" });
    expect(cookies.setCookieHeaders()).toEqual([expect.stringContaining("; Max-Age=3600;")]);
    setSystemTime(T0.getTime() + 3_599_000);
    expect((await getSession<Values>(jar(next(cookies)), { maxAge: 3600 })).get("user")).toEqual({ name: "ada" });
    setSystemTime(T0.getTime() + 3_600_000);
    expect((await getSession<Values>(jar(next(cookies)), { maxAge: 3600 })).get("user")).toBeUndefined();
  });

  test("a maxAge that is not a positive number of seconds rejects, naming it", async () => {
    for (const maxAge of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(getSession(jar(), { maxAge })).rejects.toThrow(
        `session: maxAge must be a positive number of seconds, not ${maxAge}`,
      );
    }
  });

  test("cookies that are not a request's jar: a clear error, not a session", async () => {
    const own = { ...jar() };
    expect(getSession(own)).rejects.toThrow(/these cookies are not a request's/);
  });
});

describe("renew at sign-in", () => {
  test("values and flash values planted before are dropped, the issue time is new, and what is set after it is kept", async () => {
    setSystemTime(T0);
    const planted = jar();
    const before = await getSession<Values>(planted);
    await before.set("theme", "planted");
    await before.flash("notice", "planted");
    setSystemTime(T0.getTime() + 5 * DAY * 1000);
    const signIn = jar(next(planted));
    const session = await getSession<Values>(signIn);
    await session.renew();
    expect(session.get("theme")).toBeUndefined();
    await session.set("user", { name: "ada" });
    await session.flash("notice", "Welcome");
    // Issued at sign-in: 14 days from now, not from the planted cookie's issue.
    expect(signIn.setCookieHeaders()).toEqual([expect.stringContaining("; Max-Age=1209600;")]);
    const after = await getSession<Values>(jar(next(signIn)));
    expect([after.get("theme"), after.get("user"), await after.flashed("notice")]).toEqual([
      undefined,
      { name: "ada" },
      "Welcome",
    ]);
  });

  test("every holder of the request's session sees the renewed one", async () => {
    const planted = jar();
    await (await getSession<Values>(planted)).set("theme", "planted");
    const cookies = jar(next(planted));
    const layout = await getSession<Values>(cookies);
    await (await getSession<Values>(cookies)).renew();
    expect(layout.get("theme")).toBeUndefined();
  });

  test("destroy, then a flash: the flash goes out in a new session, and nothing of the old one", async () => {
    const signIn = jar();
    await (await getSession<Values>(signIn)).set("user", { name: "ada" });
    const signOut = jar(next(signIn));
    const session = await getSession<Values>(signOut);
    await session.destroy();
    await session.flash("notice", "Signed out");
    const after = await getSession<Values>(jar(next(signOut)));
    expect([after.get("user"), await after.flashed("notice")]).toEqual([undefined, "Signed out"]);
  });
});

describe("a HEAD reads no flash value", () => {
  test("the HEAD sees it but rewrites nothing; the GET after it still gets it", async () => {
    const action = jar();
    await (await getSession<Values>(action)).flash("notice", "Saved!");
    const head = jar(next(action), signer, "HEAD");
    expect(await (await getSession<Values>(head)).flashed("notice")).toBe("Saved!");
    expect(head.setCookieHeaders()).toEqual([]);
    const get = jar(next(action));
    expect(await (await getSession<Values>(get)).flashed("notice")).toBe("Saved!");
    expect(await (await getSession<Values>(jar(next(get)))).flashed("notice")).toBeUndefined();
  });
});

// A members' area through the real app: a layout whose middleware requires a signed-in visitor (the guard; its
// loader is data), its index page showing a flash value after a save, and API routes on the same session.
const memberContext = createRouterContext<User>();

const membersOnly: Middleware = async ({ cookies, context }) => {
  context.set(memberContext, await requireUser<User>(cookies));
};

function membersLoader({ context }: LoaderContext) {
  return { user: context.get(memberContext) };
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
  const session = await getSession<Values>(cookies);
  await session.renew();
  await session.set("user", { name });
  await session.flash("notice", `Welcome, ${name}`);
  redirect("/members", { status: 303 });
}

/** A page anyone may use: a nickname kept in the session (as long as a visitor types), or a flash value. */
async function profileLoader({ cookies }: LoaderContext) {
  return { nickname: (await getSession<Values>(cookies)).get("nickname") ?? null };
}

async function profileAction({ cookies, body }: ActionContext) {
  const form = body.kind === "form" ? body.form : new FormData();
  const session = await getSession<Values>(cookies);
  if (form.get("intent") === "flash") await session.flash("notice", "Saved!");
  else {
    try {
      await session.set("nickname", String(form.get("nickname")));
    } catch (error) {
      if (!(error instanceof SessionTooLargeError)) throw error;
      return data({ error: "That nickname is too long" }, { status: 422 });
    }
  }
  redirect("/profile", { status: 303 });
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

function Profile() {
  const { nickname } = useLoaderData<typeof profileLoader>();
  return <p id="nickname">{nickname ?? "no nickname"}</p>;
}

const MembersOnly = () => <p id="members-only">Members only: sign in first</p>;

/** A layout's middleware that lets the request through, then refuses it: after the sign-in below has run. */
const refuseAfterNext: Middleware = async ({ cookies }, next) => {
  cookies.set("vault-visit", "1");
  await next();
  unauthorized();
};

/** The vault's page: a header and a cookie of its own, which the refusal above throws away. */
function vaultLoader({ cookies, setHeader }: LoaderContext) {
  setHeader("x-vault", "opened");
  cookies.set("vault-key", "42");
  return null;
}
const SignIn = () => <form method="post" />;
const Nothing = () => null;

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
    await (await getSession<Values>(requestCookies(request))).set("user", {
      name: String((body as { name?: unknown }).name),
    });
    redirect("/members", { status: 303 });
  })
  // What the old example did: a typed name signed into a plain cookie named like the session.
  .post(
    "/nickname",
    async ({ request, body }) => {
      await requestCookies(request).setSigned("session", body.name);
      return { ok: true };
    },
    { body: t.Object({ name: t.String() }) },
  )
  .post("/sign-out", async ({ request }) => {
    await (await getSession(requestCookies(request))).destroy();
    return { ok: true };
  });

describe("the guard and the session in pages and API routes", () => {
  let request: (path: string, init?: RequestInit) => Promise<Response>;
  const logs: LogRecord[] = [];
  beforeAll(async () => {
    const fixture = await loadApp();
    const routes = [
      ...fixture.routes,
      { path: "/sign-in", component: SignIn, action: signInAction },
      { path: "/profile", component: Profile, loader: profileLoader, action: profileAction },
      {
        path: "/members",
        component: Members,
        middleware: [membersOnly],
        loader: membersLoader,
        fallbacks: { unauthorized: MembersOnly },
        children: [{ index: true, component: MembersHome, loader: membersHomeLoader, action: saveAction }],
      },
      {
        path: "/vault",
        component: Outlet,
        middleware: [refuseAfterNext],
        fallbacks: { unauthorized: MembersOnly },
        children: [
          { path: "sign-in", component: SignIn, action: signInAction },
          { path: "page", component: Nothing, loader: vaultLoader },
        ],
      },
    ];
    const app = createApp(testConfig(), defineApp({ ...fixture, routes, api }), {
      assets: await clientAssets(),
      cookieSigner: signer,
      log: (r) => void logs.push(r),
    });
    request = (path, init) => app.handle(new Request(`http://localhost${path}`, init));
  });

  const SAME_ORIGIN = { origin: "http://localhost" };
  const form = (body: string, cookie = "") => ({
    method: "POST",
    headers: { ...SAME_ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie },
    body,
  });
  const cookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .join("; ");

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
    const signIn = await request("/api/sign-in", {
      method: "POST",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      body: '{"name":"grace"}',
    });
    const cookie = cookieOf(signIn);
    expect(await (await request("/members", { headers: { cookie } })).text()).toContain('<p id="member">grace</p>');
    const signOut = await request("/api/sign-out", { method: "POST", headers: { ...SAME_ORIGIN, cookie } });
    expect(signOut.headers.getSetCookie()[0]).toMatch(/^__Host-session=; Path=\/; Expires=/);
    expect((await request("/members", { headers: { cookie: cookieOf(signOut) } })).status).toBe(401);
  });

  test("an API route that sets the session and then redirects sends the session with its 303", async () => {
    const res = await request("/api/sign-in-form", form("name=lin"));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/members");
    expect(await (await request("/members", { headers: { cookie: cookieOf(res) } })).text()).toContain(
      '<p id="member">lin</p>',
    );
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

  test("signed out, a save under the guarded layout is refused before its action runs: 401 and no flash", async () => {
    const save = await request("/members", form(""));
    expect(save.status).toBe(401);
    expect(save.headers.getSetCookie()).toEqual([]);
  });

  test("a middleware that throws after next() sends its own outcome: the sign-in's session cookie goes with the response it threw away", async () => {
    const names = (res: Response) => res.headers.getSetCookie().map((cookie) => cookie.slice(0, cookie.indexOf("=")));
    for (const path of ["/vault/sign-in", "/__data/vault/sign-in"]) {
      const res = await request(path, form("name=mallory"));
      expect({ path, status: res.status, cookies: names(res) }).toEqual({
        path,
        status: 401,
        cookies: ["vault-visit"],
      });
    }
    const page = await request("/vault/page");
    expect([page.status, page.headers.get("x-vault"), names(page)]).toEqual([401, null, ["vault-visit"]]);
  });

  test("a forged session is signed out: 401 page and 401 JSON", async () => {
    const cookie = cookieOf(await request("/sign-in", form("name=ada")));
    const forged = cookie.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
    expect((await request("/members", { headers: { cookie: forged } })).status).toBe(401);
    expect((await request("/api/me", { headers: { cookie: forged } })).status).toBe(401);
  });
  test("a name typed into a plain signed cookie named like the session signs nobody in, even the base64 of a session", async () => {
    // The red team's repro on the fixture's own sign-in (setSigned("session", name)), and one with an issue time.
    const old = typedSession({ values: { user: { name: "admin" } }, flash: {} });
    const viaPage = await request("/session", form(`name=${old}`));
    expect(viaPage.status).toBe(303);
    const withIssue = typedSession({ values: { user: { name: "admin" } }, flash: {}, issuedAt: Date.now() });
    const viaApi = await request("/api/nickname", {
      method: "POST",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ name: withIssue }),
    });
    for (const cookie of [cookieOf(viaPage), cookieOf(viaApi)]) {
      expect(cookie).toStartWith("session=");
      expect((await request("/members", { headers: { cookie } })).status).toBe(401);
      expect((await request("/api/me", { headers: { cookie } })).status).toBe(401);
    }
    // The fixture's own page still reads its plain signed value as the name it is.
    expect(await (await request("/account", { headers: { cookie: cookieOf(viaPage) } })).text()).toContain(old);
  });

  test('an anonymous session holding only a flash value does not pass a getSigned("session") check', async () => {
    const flashed = await request("/profile", form("intent=flash"));
    expect(flashed.status).toBe(303);
    const cookie = cookieOf(flashed);
    expect(cookie).toStartWith("__Host-session=");
    expect((await request("/account", { headers: { cookie } })).status).toBe(401);
  });

  test("14 days after signing in the visitor is signed out, whatever cookie the browser kept", async () => {
    setSystemTime(T0);
    const cookie = cookieOf(await request("/sign-in", form("name=ada")));
    setSystemTime(T0.getTime() + 14 * DAY * 1000 - 1000);
    expect((await request("/members", { headers: { cookie } })).status).toBe(200);
    setSystemTime(T0.getTime() + 14 * DAY * 1000);
    expect((await request("/members", { headers: { cookie } })).status).toBe(401);
    expect((await request("/api/me", { headers: { cookie } })).status).toBe(401);
  });

  test("signing in drops what was planted in the session before it, and keeps the sign-in's own flash", async () => {
    const planted = cookieOf(await request("/profile", form("nickname=planted")));
    expect(await (await request("/profile", { headers: { cookie: planted } })).text()).toContain(
      '<p id="nickname">planted</p>',
    );
    const signedIn = cookieOf(await request("/sign-in", form("name=ada", planted)));
    const members = await request("/members", { headers: { cookie: signedIn } });
    expect(await members.text()).toContain('<p id="notice">Welcome, ada</p>');
    expect(await (await request("/profile", { headers: { cookie: signedIn } })).text()).toContain(
      '<p id="nickname">no nickname</p>',
    );
  });

  test("a HEAD of the page that shows a flash value leaves it for the GET, and sets no cookie", async () => {
    const cookie = cookieOf(await request("/sign-in", form("name=ada")));
    const head = await request("/members", { method: "HEAD", headers: { cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.getSetCookie()).toEqual([]);
    expect(await (await request("/members", { headers: { cookie } })).text()).toContain(
      '<p id="notice">Welcome, ada</p>',
    );
  });

  test("a nickname too long for the cookie is the action's 422, not a 500, and no error is logged", async () => {
    const before = logs.length;
    const res = await request("/profile", form(`nickname=${"x".repeat(5000)}`));
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('<p id="nickname">no nickname</p>');
    expect(logs.slice(before).filter((r) => r.level === "error")).toEqual([]);
  });
});
