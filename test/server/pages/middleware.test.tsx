// middleware.test.tsx: route middleware as a guard that holds on every request path into a guarded layout
// (documents, page data whatever levels the client says it keeps, form and fetcher posts, fetcher loads,
// routes without a page, API routes), the typed context it fills, next() and its answer, and the keep hint.
import { beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { Elysia } from "elysia";
import {
  createRouterContext,
  Outlet,
  redirect,
  useLoaderData,
  type ActionContext,
  type LoaderContext,
  type Middleware,
  type RouteDefinition,
} from "brisk";
import { getSession, requireUser, apiMiddleware } from "brisk/server";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { prerenderRoutes, PrerenderError } from "../../../src/server/prerender/prerender-routes.ts";
import { pageHandlerDeps } from "../../../src/server/create-app.ts";
import { createSecurityHeaders } from "../../../src/server/http/security-headers.ts";
import { createCookieSigner, type CookieSigner } from "../../../src/server/cookies/cookie-signer.ts";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";
import { parse } from "devalue";

const SECRET = "a middleware test secret that is long enough to sign with";

type User = { name: string };
const userContext = createRouterContext<User>();
const traceContext = createRouterContext<string[]>([]);

/** Every write an action made, and every time the guard read the session: what a signed-out visitor must not cause. */
const writes: string[] = [];
let guardRuns = 0;

const requireSignedIn: Middleware = async ({ cookies, context }) => {
  guardRuns += 1;
  context.set(userContext, await requireUser<User>(cookies));
};
const stamp: Middleware = async (_, next) => {
  const response = await next();
  response.headers.set("x-vault", "stamped");
  return response;
};
const trace =
  (name: string): Middleware =>
  ({ context, params }) => {
    context.set(traceContext, [...context.get(traceContext), `${name}:${JSON.stringify(params)}`]);
  };

function VaultLayout() {
  const { name } = useLoaderData<() => { name: string }>();
  return (
    <section>
      <p id="vault-user">{name}</p>
      <Outlet />
    </section>
  );
}
const VaultOnly = () => <p id="vault-only">sign in to see the vault</p>;
const Secret = () => <p id="secret">{useLoaderData<() => { secret: string }>().secret}</p>;
const Deep = () => <p id="deep">{useLoaderData<() => { trace: string[] }>().trace.join(" ")}</p>;
const Echo = () => <p id="echo">{useLoaderData<() => { search: string }>().search}</p>;

const routes: RouteDefinition[] = [
  {
    path: "/sign-in",
    action: async ({ body, cookies }: ActionContext) => {
      const name = body.kind === "form" ? String(body.form.get("name")) : "";
      await (await getSession(cookies)).set("user", { name });
      redirect("/vault");
    },
  },
  {
    path: "/vault",
    id: "vault",
    component: VaultLayout,
    middleware: [stamp, requireSignedIn, trace("vault")],
    loader: ({ context }: LoaderContext) => ({ name: context.get(userContext).name }),
    fallbacks: { unauthorized: VaultOnly },
    children: [
      {
        index: true,
        component: () => <p id="vault-home">home</p>,
        action: ({ context }: ActionContext) => {
          writes.push(`save by ${context.get(userContext).name}`);
          redirect("/vault");
        },
      },
      {
        path: "secret",
        component: Secret,
        loader: ({ context }: LoaderContext) => ({ secret: `the secret of ${context.get(userContext).name}` }),
        action: ({ context }: ActionContext) => {
          writes.push(`act by ${context.get(userContext).name}`);
          return { done: true };
        },
      },
      { path: "echo", component: Echo, loader: ({ url }: LoaderContext) => ({ search: url.search }) },
      {
        path: "export.csv",
        loader: ({ context }: LoaderContext) =>
          new Response(`name\n${context.get(userContext).name}\n`, { headers: { "content-type": "text/csv" } }),
      },
      {
        path: "items/:id/like",
        action: ({ params }: ActionContext) => {
          writes.push(`like ${params.id}`);
          return { liked: params.id };
        },
      },
      {
        path: "deep/:a",
        middleware: [trace("deep")],
        component: Outlet,
        children: [
          {
            path: ":b",
            middleware: [trace("leaf")],
            component: Deep,
            loader: ({ context }: LoaderContext) => ({ trace: context.get(traceContext) }),
          },
        ],
      },
    ],
  },
];

const api = new Elysia({ prefix: "/api" })
  .get("/open", () => ({ open: true }))
  .use(apiMiddleware(stamp, requireSignedIn))
  .get("/vault", ({ context }) => ({ name: context.get(userContext).name }))
  .post("/vault", ({ context }) => {
    writes.push(`api write by ${context.get(userContext).name}`);
    return { saved: true };
  })
  .get("/vault/boom", (): never => {
    throw new Error("an API route under middleware that fails");
  });

let request: (path: string, init?: RequestInit) => Promise<Response>;
let signer: CookieSigner;
let signedIn: string;
let forged: string;

beforeAll(async () => {
  signer = await createCookieSigner([SECRET]);
  const fixture = await loadApp();
  const app = createApp(testConfig(), defineApp({ ...fixture, routes: [...routes, ...fixture.routes], api }), {
    assets: await clientAssets(),
    cookieSigner: signer,
    log: () => {},
  });
  request = (path, init) => app.handle(new Request(`http://localhost${path}`, init));
  const signIn = await request("/sign-in", post("name=ada"));
  expect(signIn.status).toBe(303);
  signedIn = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  forged = signedIn.replace(/\.(.)/, (_, c: string) => `.${c === "A" ? "B" : "A"}`);
});

const ORIGIN = { origin: "http://localhost" };
const DATA = { accept: "application/x-ndjson" };
function post(body: string, cookie = "", headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { ...ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
    body,
  };
}
const get = (cookie = "", headers: Record<string, string> = {}): RequestInit => ({ headers: { cookie, ...headers } });
const lines = async (res: Response) =>
  (await res.text())
    .trim()
    .split("\n")
    .map((l) => (l.startsWith("[") ? parse(l) : JSON.parse(l)));

/** Every request path into the vault, as a visitor's browser (or curl) would make it. */
const KEEP_VALUES = [
  "1",
  "5",
  "all",
  "ALL",
  "1e0",
  "0x1",
  "Infinity",
  "1.5",
  "%201%20",
  "999999999999999999999",
  "999",
  "1000",
  "-1",
  "abc",
];
const paths: Array<[string, (cookie: string) => Promise<Response>]> = [
  ["document", (c) => request("/vault/secret", get(c))],
  ["document of the layout", (c) => request("/vault", get(c))],
  ["HEAD of the document", (c) => request("/vault/secret", { method: "HEAD", headers: { cookie: c } })],
  ["page data", (c) => request("/__data/vault/secret", get(c, DATA))],
  ...KEEP_VALUES.map((keep): [string, (c: string) => Promise<Response>] => [
    `page data ?_keep=${keep}`,
    (c) => request(`/__data/vault/secret?_keep=${keep}`, get(c, DATA)),
  ]),
  ["page data ?%5Fkeep=1", (c) => request("/__data/vault/secret?%5Fkeep=1", get(c, DATA))],
  ["page data ?_keep=1&_keep=0", (c) => request("/__data/vault/secret?_keep=1&_keep=0", get(c, DATA))],
  ["page data two levels kept", (c) => request("/__data/vault/deep/x/y?_keep=2", get(c, DATA))],
  ["fetcher load", (c) => request("/__data/vault/secret?_keep=1", get(c, DATA))],
  ["route without a page", (c) => request("/vault/export.csv", get(c))],
  ["route without a page, as HTML", (c) => request("/vault/export.csv", get(c, { accept: "text/html" }))],
  ["route without a page, as page data", (c) => request("/__data/vault/export.csv", get(c, DATA))],
];

describe("a layout's guard middleware holds on every request path", () => {
  for (const [kind, send] of paths) {
    test(`${kind}: signed out, forged and expired are 401 with nothing of the vault; signed in, 200`, async () => {
      for (const cookie of ["", forged]) {
        const res = await send(cookie);
        expect(res.status).toBe(401);
        const body = await res.text();
        expect(body).not.toContain("the secret of");
        expect(body).not.toContain("name\n");
        expect(res.headers.get("x-vault")).toBe("stamped");
      }
      const res = await send(signedIn);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-vault")).toBe("stamped");
      // Expired: the same signed-in cookie once its 14 days have passed, on a clock the test moves on.
      setSystemTime(Date.now() + 15 * 24 * 60 * 60 * 1000);
      try {
        expect((await send(signedIn)).status).toBe(401);
      } finally {
        setSystemTime();
      }
    });
  }

  test("a <Form> post and a fetcher post under the guard, signed out: 401 and the action never ran", async () => {
    writes.length = 0;
    for (const cookie of ["", forged]) {
      // The redirecting action (the recommended shape), as a document post and as the client's page-data post.
      expect((await request("/vault", post("x=1", cookie))).status).toBe(401);
      expect((await request("/__data/vault", post("x=1", cookie, DATA))).status).toBe(401);
      // The data-returning action, and an action-only route (a like button's endpoint).
      expect((await request("/vault/secret", post("x=1", cookie))).status).toBe(401);
      expect((await request("/__data/vault/secret", post("x=1", cookie, DATA))).status).toBe(401);
      expect((await request("/__data/vault/secret?_keep=all", post("x=1", cookie, DATA))).status).toBe(401);
      expect((await request("/vault/items/7/like", post("x=1", cookie))).status).toBe(401);
      expect((await request("/__data/vault/items/7/like", post("x=1", cookie, DATA))).status).toBe(401);
    }
    expect(writes).toEqual([]);
  });

  test("the same posts signed in run their actions, with the user the middleware read", async () => {
    writes.length = 0;
    const save = await request("/vault", post("x=1", signedIn));
    expect(save.status).toBe(303);
    expect(save.headers.get("location")).toBe("/vault");
    expect(save.headers.get("x-vault")).toBe("stamped");
    expect((await request("/__data/vault/secret", post("x=1", signedIn, DATA))).status).toBe(200);
    expect(await (await request("/vault/items/7/like", post("x=1", signedIn))).json()).toEqual({ liked: "7" });
    expect(writes).toEqual(["save by ada", "act by ada", "like 7"]);
  });

  test("signed out, the 401 shows the layout's own fallback as a loader's outcome would", async () => {
    const html = await (await request("/vault/secret")).text();
    expect(html).toContain('<p id="vault-only">sign in to see the vault</p>');
    const [head] = await lines(await request("/__data/vault/secret?_keep=1", get("", DATA)));
    expect(head.outcome).toEqual({ kind: "unauthorized", status: 401 });
    expect(head.boundary).toEqual({ id: "vault", depth: 0 });
    expect(JSON.stringify(head.levels)).not.toContain("data");
  });

  test("a route without a page answers its 401 as JSON to a request that does not take HTML, as the page to one that does", async () => {
    const json = await request("/vault/export.csv");
    expect(json.headers.get("content-type")).toStartWith("application/json");
    expect(await json.json()).toEqual({ error: "unauthorized" });
    const html = await request("/vault/export.csv", get("", { accept: "text/html" }));
    expect(html.headers.get("content-type")).toStartWith("text/html");
    expect(await (await request("/vault/export.csv", get(signedIn))).text()).toBe("name\nada\n");
  });

  test("the user is read once per request, however many levels read it", async () => {
    const before = guardRuns;
    const res = await request("/vault/secret", get(signedIn));
    const html = await res.text();
    expect(html).toContain('<p id="vault-user">ada</p>');
    expect(html).toContain('<p id="secret">the secret of ada</p>');
    expect(guardRuns - before).toBe(1);
  });
});

describe("middleware order, params and context", () => {
  test("outermost level first, each with its own level's params, and loaders read what they put in the context", async () => {
    const html = await (await request("/vault/deep/x/y", get(signedIn))).text();
    expect(html).toContain(
      `<p id="deep">vault:{} deep:{&quot;a&quot;:&quot;x&quot;} leaf:{&quot;a&quot;:&quot;x&quot;,&quot;b&quot;:&quot;y&quot;}</p>`,
    );
  });

  test("a kept level's middleware runs and its loader does not", async () => {
    const [head] = await lines(await request("/__data/vault/deep/x/y?_keep=2", get(signedIn, DATA)));
    expect(head.levels[0]).toEqual({ id: "vault", kept: true });
    expect(head.levels.at(-1).data.trace).toEqual(["vault:{}", 'deep:{"a":"x"}', 'leaf:{"a":"x","b":"y"}']);
  });

  test("the keep hint never reaches a loader's URL, whatever its spelling", async () => {
    for (const query of ["_keep=1", "_keep=abc", "_keep=0&_keep=1", "%5Fkeep=1", "q=1&_keep=1&r=2"]) {
      const [head] = await lines(await request(`/__data/vault/echo?${query}`, get(signedIn, DATA)));
      const search = head.levels.at(-1).data.search as string;
      expect(search).not.toContain("keep");
      if (query.startsWith("q=")) expect(search).toBe("?q=1&r=2");
    }
  });

  test("a valid hint keeps its levels; a loose one keeps none", async () => {
    const kept = async (query: string) =>
      (await lines(await request(`/__data/vault/secret?${query}`, get(signedIn, DATA))))[0].levels[0].kept === true;
    expect(await kept("_keep=1")).toBe(true);
    expect(await kept("_keep=999")).toBe(true);
    for (const loose of ["_keep=1e0", "_keep=0x1", "_keep=1.5", "_keep=1000", "_keep=1&_keep=1", "_keep=01"])
      expect(await kept(loose)).toBe(false);
  });
});

describe("what a middleware may do with the answer", () => {
  const app = async (middleware: Middleware[], child: Partial<RouteDefinition> = {}) => {
    const fixture = await loadApp();
    const table: RouteDefinition[] = [
      {
        path: "/m",
        component: Outlet,
        middleware,
        children: [{ index: true, component: () => <p id="m">m</p>, loader: () => ({}), ...child }],
      },
    ];
    const captured: unknown[] = [];
    const served = createApp(testConfig(), defineApp({ ...fixture, routes: table }), {
      assets: await clientAssets(),
      cookieSigner: signer,
      capture: (error) => void captured.push(error),
      log: () => {},
    });
    return {
      send: (path = "/m", init?: RequestInit) => served.handle(new Request(`http://localhost${path}`, init)),
      captured,
    };
  };

  test("an error a middleware throws is the error page with a digest, reported once", async () => {
    const { send, captured } = await app([
      () => {
        throw new Error("middleware failed");
      },
    ]);
    const res = await send();
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/Digest: <code>\w+<\/code>/);
    expect(captured).toHaveLength(1);
  });

  test("a redirect from middleware is a redirect, 303 after a post", async () => {
    const { send } = await app([() => redirect("/elsewhere")], { action: () => null });
    expect((await send()).headers.get("location")).toBe("/elsewhere");
    expect((await send()).status).toBe(307);
    expect((await send("/m", post("x=1"))).status).toBe(303);
  });

  test("a Response returned by a middleware answers in place of the page", async () => {
    const { send } = await app([() => new Response("teapot", { status: 418 })]);
    const res = await send();
    expect(res.status).toBe(418);
    expect(await res.text()).toBe("teapot");
  });

  test("next() twice is an error of the app's, shown as one", async () => {
    const { send, captured } = await app([
      async (_, next) => {
        await next();
        return next();
      },
    ]);
    expect((await send()).status).toBe(500);
    expect(String(captured[0])).toContain("next() was called twice");
  });

  test("a middleware that throws after next() replaces the answer with its failure", async () => {
    const { send } = await app([
      async (_, next) => {
        await next();
        redirect("/after");
      },
    ]);
    const res = await send();
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("/after");
  });

  test("a middleware that reads next()'s body and answers with a Response of its own: that answer", async () => {
    const { send, captured } = await app([
      async (_, next) => {
        const page = await (await next()).text();
        return new Response(`${page.length} bytes`, { status: 200 });
      },
    ]);
    const res = await send();
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^\d+ bytes$/);
    expect(captured).toEqual([]);
  });

  test("setHeader before next() goes on the answer, as a loader's does", async () => {
    const { send } = await app([({ setHeader }) => setHeader("x-before", "set")]);
    expect((await send()).headers.get("x-before")).toBe("set");
  });

  test("reading a context nothing set fails clearly; one with a default gives it", async () => {
    const unset = createRouterContext<string>();
    const { send, captured } = await app([], {
      loader: ({ context }: LoaderContext) => ({ value: context.get(unset) }),
    });
    expect((await send()).status).toBe(500);
    expect(String(captured[0])).toContain("no value set for this context");
    expect(createRouterContext("fallback").defaultValue).toBe("fallback");
  });
});

describe("API routes get the same middleware through brisk/server", () => {
  test("signed out or forged: 401 JSON and no write; the routes before it stay open", async () => {
    writes.length = 0;
    for (const cookie of ["", forged]) {
      const res = await request("/api/vault", get(cookie));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "unauthorized" });
      const write = await request("/api/vault", {
        method: "POST",
        headers: { ...ORIGIN, "content-type": "application/json", cookie },
        body: "{}",
      });
      expect(write.status).toBe(401);
    }
    expect(writes).toEqual([]);
    expect(await (await request("/api/open")).json()).toEqual({ open: true });
  });

  test("signed in: the handler reads the context, and next() sees its answer", async () => {
    const res = await request("/api/vault", get(signedIn));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-vault")).toBe("stamped");
    expect(await res.json()).toEqual({ name: "ada" });
  });

  test("a handler that fails under middleware is the API's 500 JSON with a digest", async () => {
    const res = await request("/api/vault/boom", get(signedIn));
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: "internal server error", digest: expect.any(String) });
  });
});

test("a prerendered route under middleware fails the start: a prerendered page would skip the guard", async () => {
  const fixture = await loadApp();
  const app = defineApp({
    ...fixture,
    routes: [
      {
        path: "/g",
        component: Outlet,
        middleware: [requireSignedIn],
        children: [{ path: "p", component: () => null, prerender: true }],
      },
    ],
  });
  const assets = await clientAssets();
  const deps = pageHandlerDeps(testConfig(), app, {
    assets,
    capture: () => {},
    security: createSecurityHeaders(testConfig()),
  });
  expect(() => prerenderRoutes(app.routes, deps)).toThrow(PrerenderError);
  expect(() => prerenderRoutes(app.routes, deps)).toThrow(
    "route /g/p is marked prerender, but it or a route above it has middleware",
  );
});
