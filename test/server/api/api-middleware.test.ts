// api-middleware.test.ts: every apiMiddleware(…) runs (red-team N1): a second one on the same instance, one on a
// module mounted after another, any number of middleware each, in order, as one chain around the handler. And they
// run before the body is read and the schema checked (N6): a visitor the guard refuses gets its 401 or 403, never a
// 422 naming the route's fields, and no byte of the body is read for them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { createRouterContext, forbidden, unauthorized, type Middleware } from "brisk";
import { apiMiddleware, requestCookies } from "brisk/server";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";

/** What each middleware and handler did, in order: what a refused visitor must not cause. */
const ran: string[] = [];
const userContext = createRouterContext<{ name: string }>();

const logRequests: Middleware = ({ url }) => void ran.push(`log ${url.pathname}`);
const adminOnly: Middleware = ({ url, headers }) => {
  ran.push(`admin ${url.pathname}`);
  if (headers.get("x-role") !== "admin") forbidden();
};
const signedIn: Middleware = ({ headers, context }) => {
  const name = headers.get("x-user");
  if (!name) unauthorized();
  context.set(userContext, { name });
};
const stamp: Middleware = async (_, next) => {
  const response = await next();
  response.headers.set("x-stamp", "outer");
  ran.push("stamp after next()");
  return response;
};
const cached: Middleware = ({ headers, setHeader, cookies }) => {
  if (!headers.get("x-cached")) return;
  setHeader("x-answered-by", "middleware");
  cookies.set("answered", "early");
  return Response.json({ cached: true });
};
let countedRuns = 0;
const counted = apiMiddleware(() => void (countedRuns += 1));

const adminModule = new Elysia({ prefix: "/module" })
  .use(apiMiddleware(adminOnly))
  .get("/admin", () => (ran.push("module handler"), { secret: "module" }));

const api = new Elysia({ prefix: "/api" })
  .use(apiMiddleware(logRequests))
  .get("/status", () => ({ ok: true }))
  // A module with its own guard, mounted after the logging middleware.
  .use(adminModule)
  // The same instance, later: a second apiMiddleware of the same arity as the first.
  .use(apiMiddleware(adminOnly))
  .get("/admin", () => (ran.push("admin handler"), { secret: "same instance" }))
  .post("/admin/delete", ({ body }) => (ran.push(`delete ${body.id}`), { deleted: body.id }), {
    body: t.Object({ id: t.Number() }),
  })
  .all("/admin/any", ({ request }) => (ran.push(`any ${request.method}`), { any: true }));

const filled = new Elysia({ prefix: "/api/filled" })
  .use(apiMiddleware(logRequests))
  .use(apiMiddleware(signedIn))
  .get("/me", ({ context }) => ({ name: context.get(userContext).name }));

const arities = new Elysia({ prefix: "/api/arities" })
  .use(apiMiddleware(stamp))
  .use(apiMiddleware(logRequests, signedIn))
  .get("/me", ({ context }) => (ran.push("arities handler"), { name: context.get(userContext).name }));

const notes = new Elysia({ prefix: "/api/notes" })
  .use(apiMiddleware(cached, signedIn))
  .post("/", ({ body, context }) => (ran.push("note saved"), { by: context.get(userContext).name, text: body.text }), {
    body: t.Object({ text: t.String({ maxLength: 5 }) }),
  })
  .get("/search", ({ query }) => ({ limit: query.limit }), { query: t.Object({ limit: t.Numeric({ minimum: 1 }) }) });

const owned = new Elysia({ prefix: "/api/owned" })
  .use(apiMiddleware(({ params, headers }) => void ran.push(`owner of ${params.id}: ${headers.get("x-user")}`)))
  .put("/:id", ({ params }) => ({ id: params.id }), {
    params: t.Object({ id: t.Numeric() }),
    body: t.Object({ text: t.String() }),
  });

/** A handler that starts a session-like cookie, under middleware that change their mind after next(). */
const afterNext = new Elysia({ prefix: "/api/after" })
  .use(
    apiMiddleware(
      ({ cookies }) => cookies.set("before", "next"),
      async ({ headers }, next) => {
        const response = await next();
        if (headers.get("x-refuse")) unauthorized();
        if (headers.get("x-rewrite")) return Response.json({ length: (await response.text()).length });
        return response;
      },
    ),
  )
  .post("/sign-in", ({ request }) => (requestCookies(request).set("session", "started"), { signedIn: true }));

const twice = new Elysia({ prefix: "/api/twice" })
  .use(counted)
  .use(new Elysia({ prefix: "/inner" }).use(counted).get("/x", () => ({ x: true })));

let app: ReturnType<typeof createApp>;
let request: (path: string, init?: RequestInit) => Promise<Response>;
beforeAll(async () => {
  const fixture = await loadApp();
  app = createApp(
    testConfig(),
    defineApp({
      ...fixture,
      api: new Elysia().use(api).use(filled).use(arities).use(notes).use(owned).use(twice).use(afterNext),
    }),
    {
      assets: await clientAssets(),
      log: () => {},
    },
  );
  request = (path, init) => app.handle(new Request(`http://localhost${path}`, init));
});

const ADMIN = { "x-role": "admin" };
const ORIGIN = { origin: "http://localhost" };

async function answer(path: string, init?: RequestInit) {
  ran.length = 0;
  const res = await request(path, init);
  return { status: res.status, body: res.status === 204 ? null : await res.json(), res };
}

describe("every apiMiddleware runs (N1)", () => {
  test.each([
    ["a guard used later on the same instance as a logging middleware", "/api/admin", "same instance", "admin handler"],
    [
      "a module's own guard, the module mounted after a logging apiMiddleware",
      "/api/module/admin",
      "module",
      "module handler",
    ],
  ])("%s refuses after the log, and lets an admin through", async (_, path, secret, handler) => {
    expect(await answer(path)).toMatchObject({ status: 403, body: { error: "forbidden" } });
    expect(ran).toEqual([`log ${path}`, `admin ${path}`]);
    expect(await answer(path, { headers: ADMIN })).toMatchObject({ status: 200, body: { secret } });
    expect(ran).toEqual([`log ${path}`, `admin ${path}`, handler]);
  });

  test("a route registered before the later guard stays open to it", async () => {
    expect(await answer("/api/status")).toMatchObject({ status: 200, body: { ok: true } });
    expect(ran).toEqual(["log /api/status"]);
  });

  test("signed out, a write under the later guard is refused and never runs", async () => {
    const res = await answer("/api/admin/delete", {
      method: "POST",
      headers: { ...ORIGIN, "content-type": "application/json" },
      body: '{"id":1}',
    });
    expect(res).toMatchObject({ status: 403, body: { error: "forbidden" } });
    expect(ran).toEqual(["log /api/admin/delete", "admin /api/admin/delete"]);
  });

  test("HEAD on a guarded GET route and any method on a guarded `all` route are refused too", async () => {
    ran.length = 0;
    expect((await request("/api/admin", { method: "HEAD" })).status).toBe(403);
    expect(ran).toEqual(["log /api/admin", "admin /api/admin"]);
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      expect(await answer("/api/admin/any", { method, headers: ORIGIN })).toMatchObject({ status: 403 });
      expect(ran).not.toContain(`any ${method}`);
    }
    expect(await answer("/api/admin/any", { method: "PUT", headers: { ...ORIGIN, ...ADMIN } })).toMatchObject({
      status: 200,
      body: { any: true },
    });
  });

  test("a guard that fills the context, after another apiMiddleware: 401 signed out, the user to the handler signed in", async () => {
    expect(await answer("/api/filled/me")).toMatchObject({ status: 401, body: { error: "unauthorized" } });
    expect(await answer("/api/filled/me", { headers: { "x-user": "ada" } })).toMatchObject({
      status: 200,
      body: { name: "ada" },
    });
    expect(ran).toEqual(["log /api/filled/me"]);
  });

  test("different arities nest as one chain: the outer next() gets the handler's answer, or the inner guard's refusal", async () => {
    const { status, body, res } = await answer("/api/arities/me", { headers: { "x-user": "grace" } });
    expect({ status, body }).toEqual({ status: 200, body: { name: "grace" } });
    expect(res.headers.get("x-stamp")).toBe("outer");
    expect(ran).toEqual(["log /api/arities/me", "arities handler", "stamp after next()"]);
    // The refusal reaches the outer middleware as its next() failing, as a page's does.
    expect(await answer("/api/arities/me")).toMatchObject({ status: 401, body: { error: "unauthorized" } });
    expect(ran).toEqual(["log /api/arities/me"]);
  });

  test("a middleware gets the route's params as the URL spells them, before the schema converts them", async () => {
    const put = {
      method: "PUT",
      headers: { ...ORIGIN, "content-type": "application/json", "x-user": "ada" },
      body: '{"text":"hi"}',
    };
    expect(await answer("/api/owned/42", put)).toMatchObject({ status: 200, body: { id: 42 } });
    expect(ran).toEqual(["owner of 42: ada"]);
  });

  test("the same apiMiddleware reached twice on one route runs once", async () => {
    countedRuns = 0;
    expect((await request("/api/twice/inner/x")).status).toBe(200);
    expect(countedRuns).toBe(1);
  });

  test("outside the app's API its handler never runs without its middleware", async () => {
    let handled = false;
    const bare = new Elysia().use(apiMiddleware(logRequests)).get("/bare", () => ((handled = true), "ran"));
    const res = await bare.handle(new Request("http://localhost/bare"));
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("apiMiddleware: its middleware did not run for this route");
    expect(handled).toBe(false);
  });
});

/** A JSON body as a stream that records whether anything asked it for a byte. */
function watchedBody(json: string) {
  const read = { pulled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        read.pulled = true;
        controller.enqueue(new TextEncoder().encode(json));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const init = {
    method: "POST",
    headers: { ...ORIGIN, "content-type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit;
  return {
    read,
    init: (headers: Record<string, string> = {}) => ({
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...headers },
    }),
  };
}

describe("the middleware run before the body is read and the schema checked (N6)", () => {
  test("signed out, a body the schema refuses gets the guard's 401, never a 422 naming its fields, and is not read", async () => {
    const { read, init } = watchedBody('{"text":"far too long for the schema"}');
    const res = await answer("/api/notes", init());
    expect(res).toEqual({ status: 401, body: { error: "unauthorized" }, res: res.res });
    expect(read.pulled).toBe(false);
    expect(ran).toEqual([]);
  });

  test("signed in, the same body is read and refused by the schema, naming the field", async () => {
    const { read, init } = watchedBody('{"text":"far too long for the schema"}');
    const res = await answer("/api/notes", init({ "x-user": "ada" }));
    expect(res.status).toBe(422);
    expect(Object.keys((res.body as { fields: object }).fields)).toEqual(["text"]);
    expect(read.pulled).toBe(true);
  });

  test("signed in, a body the schema takes reaches the handler with the user", async () => {
    const { init } = watchedBody('{"text":"hi"}');
    expect(await answer("/api/notes", init({ "x-user": "ada" }))).toMatchObject({
      status: 200,
      body: { by: "ada", text: "hi" },
    });
    expect(ran).toEqual(["note saved"]);
  });

  test("signed out, a query the schema refuses gets the 401, not a 422", async () => {
    expect(await answer("/api/notes/search?limit=0")).toMatchObject({ status: 401, body: { error: "unauthorized" } });
    expect(await answer("/api/notes/search?limit=0", { headers: { "x-user": "ada" } })).toMatchObject({ status: 422 });
  });

  test("a middleware's own Response answers, its status and headers kept, the body unread and the handler not run", async () => {
    const { read, init } = watchedBody('{"text":"far too long for the schema"}');
    const { status, body, res } = await answer("/api/notes", init({ "x-cached": "1" }));
    expect({ status, body }).toEqual({ status: 200, body: { cached: true } });
    expect(res.headers.get("x-answered-by")).toBe("middleware");
    expect(res.headers.getSetCookie()).toEqual([expect.stringMatching(/^answered=early; Path=\/;/)]);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(read.pulled).toBe(false);
    expect(ran).toEqual([]);
  });

  test("a cross-site write is refused on its headers before any middleware runs", async () => {
    const { read, init } = watchedBody('{"text":"hi"}');
    const res = await answer("/api/notes", init({ origin: "https://elsewhere.example", "x-user": "ada" }));
    expect(res.status).toBe(403);
    expect(read.pulled).toBe(false);
    expect(ran).toEqual([]);
  });
});

describe("what a middleware does after next()", () => {
  const signIn = (headers: Record<string, string>) =>
    request("/api/after/sign-in", { method: "POST", headers: { ...ORIGIN, ...headers } });
  const cookieNames = (res: Response) => res.headers.getSetCookie().map((cookie) => cookie.split("=")[0]);

  test("a throw after next() answers with its outcome and the cookies set before next(), never the handler's", async () => {
    const res = await signIn({ "x-refuse": "1" });
    expect(res.status).toBe(401);
    expect(cookieNames(res)).toEqual(["before"]);
    expect(cookieNames(await signIn({}))).toEqual(["before", "session"]);
  });

  test("one that reads the handler's answer and returns its own gets that answer", async () => {
    const res = await signIn({ "x-rewrite": "1" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ length: JSON.stringify({ signedIn: true }).length });
  });
});

describe("on a real socket", () => {
  beforeAll(() => void app.listen({ hostname: "127.0.0.1", port: 0 }));
  afterAll(() => app.stop(true));

  test("a refused post is answered while its body is still to come", async () => {
    // A body that sends its first bytes and then nothing: a server that read it would wait for the rest.
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"text":"')),
    });
    const origin = `http://127.0.0.1:${app.server!.port}`;
    const res = await fetch(`${origin}/api/notes`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "unauthorized" });
    await body.cancel().catch(() => {});
  });
});
