// Prerendered routes: the prerendered page with each response's own nonce and request id, weak ETag, 304 and 412,
// stale-while-revalidate with one re-render at a time, and routes that cannot be prerendered refused.
import { afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { brotliDecompressSync } from "node:zlib";
import { useLocation } from "wouter";
import { Outlet, useLoaderData, useRouteLoaderData } from "brisk";
import type { AppDefinition } from "../../../src/runtime/app-definition.ts";
import type { LoaderContext } from "../../../src/runtime/route.ts";
import { createApp, renderPrerenderedPages } from "../../../src/server/create-app.ts";
import type { ErrorContext } from "../../../src/server/request/context.ts";
import type { RequestMonitor } from "../../../src/server/request/monitor.ts";
import { prerenderState } from "../../fixtures/app/loaders.server.ts";
import { listenApp, type ServedApp } from "brisk/test";
import { clientAssets, FIXTURE, loadApp, serveWith, testConfig } from "../../support/app.ts";
import { bootState } from "../../support/page-state.ts";
import { rawExchange } from "../../support/raw-http.ts";
import { changes, until } from "../../support/until.ts";

let t: ServedApp;
const captured: Array<[unknown, ErrorContext]> = [];
const reported = changes();
beforeAll(async () => {
  const capture = (error: unknown, context: ErrorContext) => {
    captured.push([error, context]);
    reported.changed();
  };
  t = await serveWith(FIXTURE, { capture });
  await t.prerendered();
});
afterEach(() => {
  setSystemTime();
  prerenderState.fail = false;
});

const nonceOf = (res: Response) =>
  /script-src 'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")![1]!;
const renderOf = (html: string) => Number(/Render (?:<!-- -->)?(\d+)/.exec(html)?.[1]);

/** Waits until the prerendered page shows a render after `render` (the re-render runs in the background). */
async function renderAfter(render: number): Promise<number> {
  let now = render;
  await until(
    async () => (now = renderOf(await (await t.request("/prerendered")).text())) > render,
    `a stored render after render ${render}`,
  );
  return now;
}

describe("the prerendered page", () => {
  test("is the page a fresh render gives, apart from the nonce, the request id and the render count", async () => {
    const stored = await t.request("/prerendered");
    expect(stored.headers.get("etag")).toMatch(/^W\/"[0-9a-z]+"$/);
    const definition = await loadApp();
    const live = createApp(
      testConfig(),
      { ...definition, routes: definition.routes.map((r) => ({ ...r, prerender: false })) },
      {
        assets: await clientAssets(),
        log: () => {},
      },
    );
    const fresh = await live.handle(new Request("http://localhost/prerendered"));
    expect(fresh.headers.get("etag")).toBeNull();
    const same = (res: Response, html: string) =>
      html
        .replaceAll(nonceOf(res), "NONCE")
        .replace(/Render (<!-- -->)?\d+/, "Render N")
        .replace(/"render":\d+/, '"render":N');
    expect(same(stored, await stored.text())).toBe(same(fresh, await fresh.text()));
    for (const name of ["content-type", "cache-control", "referrer-policy", "cross-origin-opener-policy"]) {
      expect(stored.headers.get(name)).toBe(fresh.headers.get(name));
    }
    expect(stored.headers.get("x-request-id")).toBeTruthy();
  });

  test("every response has its own nonce, on every inline script and preload, and the host it was asked under", async () => {
    const [a, b] = await Promise.all([t.request("/prerendered"), t.request("/prerendered")]);
    expect(nonceOf(a)).not.toBe(nonceOf(b));
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
    const html = await a.text();
    const nonce = nonceOf(a);
    const tags = [...html.matchAll(/<script\b[^>]*>|<link rel="modulepreload"[^>]*>/g)].map(([tag]) => tag);
    // The boot script at least (the page's modules are imported from it, not preloaded).
    expect(tags.filter((tag) => tag.includes('id="_R_"'))).toHaveLength(1);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
    expect(bootState(html).nonce).toBe(nonce);
    expect(bootState(html).host).toBe("localhost");
    expect(html).not.toMatch(/brisk0prerender|brisk-prerender-host/);
  });

  test("304 on a matching If-None-Match, the page on another; HEAD has the headers alone", async () => {
    const first = await t.request("/prerendered");
    const etag = first.headers.get("etag")!;
    const again = await t.request("/prerendered", { headers: { "if-none-match": `"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("x-request-id")).toBeTruthy();
    expect(await again.text()).toBe("");
    expect((await t.request("/prerendered", { headers: { "if-none-match": '"other"' } })).status).toBe(200);
    const head = await t.request("/prerendered", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(await head.text()).toBe("");
  });

  test("gzip when taken, joined from pieces compressed once: the same page, with its own nonce and ETag", async () => {
    const plain = await t.request("/prerendered");
    const res = await t.request("/prerendered", { headers: { "accept-encoding": "br, gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(res.headers.get("etag")).toBe(`${plain.headers.get("etag")!.slice(0, -1)}-gzip"`);
    const html = Bun.gunzipSync(new Uint8Array(await res.arrayBuffer()));
    const text = new TextDecoder().decode(html);
    expect(text.replaceAll(nonceOf(res), "N")).toBe((await plain.text()).replaceAll(nonceOf(plain), "N"));
    // Brotli alone is not on offer for a prerendered page: it cannot be joined around the nonce.
    expect(
      (await t.request("/prerendered", { headers: { "accept-encoding": "br" } })).headers.get("content-encoding"),
    ).toBeNull();
  });

  test("its ETag is weak, as two answers' bytes differ by their nonce, and one per coding", async () => {
    const [a, b] = [await t.request("/prerendered"), await t.request("/prerendered")];
    expect(await a.text()).not.toBe(await b.text());
    const etag = a.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[0-9a-z]+"$/);
    expect(b.headers.get("etag")).toBe(etag);
    const gzip = await t.request("/prerendered", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("etag")).toBe(`${etag.slice(0, -1)}-gzip"`);
  });

  test("If-None-Match with the tag of the coding asked for: 304; the other coding's tag: the page", async () => {
    const gzipTag = (await t.request("/prerendered", { headers: { "accept-encoding": "gzip" } })).headers.get("etag")!;
    for (const method of ["GET", "HEAD"]) {
      const again = await t.request("/prerendered", {
        method,
        headers: { "accept-encoding": "gzip", "if-none-match": gzipTag },
      });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(gzipTag);
      const plain = await t.request("/prerendered", { method, headers: { "if-none-match": gzipTag } });
      expect(plain.status).toBe(200);
    }
  });

  test("If-Match: 412 for any listed tag, its own weak one included (the strong comparison); `*` gets the page; HEAD alike", async () => {
    const etag = (await t.request("/prerendered")).headers.get("etag")!;
    for (const method of ["GET", "HEAD"]) {
      for (const field of ['"nope"', etag, etag.slice(2)]) {
        const failed = await t.request("/prerendered", { method, headers: { "if-match": field } });
        expect(failed.status).toBe(412);
        expect(failed.headers.get("x-request-id")).toBeTruthy();
        expect(failed.headers.get("x-content-type-options")).toBe("nosniff");
        expect(failed.headers.get("etag")).toBeNull();
      }
      const any = await t.request("/prerendered", { method, headers: { "if-match": "*" } });
      expect(any.status).toBe(200);
      expect(any.headers.get("etag")).toBe(etag);
    }
  });

  test("a 304 carries no CSP: a cache would put its new nonce on the page it keeps", async () => {
    const etag = (await t.request("/prerendered")).headers.get("etag")!;
    const again = await t.request("/prerendered", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-security-policy")).toBeNull();
  });

  test("client navigation gets the prerendered page data, the same render as the document, compressed by brotli", async () => {
    const document = renderOf(await (await t.request("/prerendered")).text());
    const rendersBefore = prerenderState.renders;
    const data = await t.request("/__data/prerendered", { headers: { "accept-encoding": "gzip, br" } });
    expect(data.status).toBe(200);
    expect(data.headers.get("content-encoding")).toBe("br");
    const payload = JSON.parse(brotliDecompressSync(await data.arrayBuffer()).toString());
    expect(payload).toMatchObject({
      path: "/prerendered",
      route: "/prerendered",
      levels: [{ id: "/prerendered", data: { render: document } }],
    });
    expect(prerenderState.renders).toBe(rendersBefore);
  });

  test("a search renders the page as usual", async () => {
    const res = await t.request("/prerendered?x=1");
    expect(res.headers.get("etag")).toBeNull();
    expect(bootState(await res.text()).page.search).toBe("x=1");
  });
});

describe("the not-found page for unmatched paths", () => {
  /** The fixture app with the not-found page given, its renders counted; prerendered as a production start does. */
  async function appWithNotFound(shows: (path: string) => string) {
    const definition = await loadApp();
    const counter = { renders: 0 };
    function NotFound() {
      counter.renders++;
      return <p className="missing">{shows(useLocation()[0])}</p>;
    }
    const app = createApp(
      testConfig(),
      { ...definition, fallbacks: { ...definition.fallbacks, "not-found": NotFound } },
      {
        assets: await clientAssets(),
        log: () => {},
      },
    );
    await renderPrerenderedPages(app);
    return {
      app,
      counter,
      get: (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init)),
    };
  }

  test("is rendered once: the path and search are filled in as a render writes them, with each response's nonce", async () => {
    const { counter, get } = await appWithNotFound(() => "There is no page here.");
    const before = counter.renders;
    const path = "/no/such/a&b'c%3Cd%3E?q=%3Cx%3E&y='z'";
    const [stored, again] = [await get(path), await get(path)];
    expect(counter.renders).toBe(before);
    expect(stored.status).toBe(404);
    expect(nonceOf(stored)).not.toBe(nonceOf(again));
    const definition = await loadApp();
    const live = createApp(testConfig(), definition, { assets: await clientAssets(), log: () => {} });
    const fresh = await live.handle(new Request(`http://localhost${path}`));
    expect(fresh.status).toBe(404);
    const html = await stored.text();
    expect(bootState(html).page).toMatchObject({ path: "/no/such/a&b'c%3Cd%3E", search: "q=%3Cx%3E&y=%27z%27" });
    // The live app shows its own not-found page; the rest of the document must be the same to the byte.
    const strip = (res: Response, text: string) =>
      text.replaceAll(nonceOf(res), "N").replace(/<main.*<\/main>|<p class="missing">.*?<\/p>/, "BODY");
    expect(strip(stored, html)).toBe(strip(fresh, await fresh.text()));
    for (const name of ["content-type", "cache-control", "x-robots-tag"])
      expect(stored.headers.get(name)).toBe(fresh.headers.get(name));
    expect(stored.headers.get("etag")).toBeNull();
  });

  test("If-Match is not heeded: the stored 404 is a 404, not a 412 (RFC 9110 13.2.1)", async () => {
    const { get } = await appWithNotFound(() => "There is no page here.");
    expect((await get("/nowhere", { headers: { "if-match": '"nope"' } })).status).toBe(404);
  });

  test("HEAD: the 404 and its headers, no body", async () => {
    const { get } = await appWithNotFound(() => "There is no page here.");
    const head = await get("/nowhere", { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(head.headers.get("content-type")).toStartWith("text/html");
    expect(head.headers.get("content-security-policy")).toContain("'nonce-");
    expect(await head.text()).toBe("");
  });

  test("gzip joins the same page", async () => {
    const { get } = await appWithNotFound(() => "There is no page here.");
    const [a, b] = [await get("/nowhere"), await get("/nowhere", { headers: { "accept-encoding": "gzip" } })];
    expect(b.headers.get("content-encoding")).toBe("gzip");
    const unzipped = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await b.arrayBuffer())));
    expect(unzipped.replaceAll(nonceOf(b), "N")).toBe((await a.text()).replaceAll(nonceOf(a), "N"));
  });

  test("a route's own not-found outcome still renders, with its route", async () => {
    const { counter, get } = await appWithNotFound(() => "There is no page here.");
    const before = counter.renders;
    const res = await get("/not-found");
    expect(res.status).toBe(404);
    expect(bootState(await res.text()).page.route).toBe("/not-found");
    expect(counter.renders).toBe(before + 1);
  });

  test("a not-found page that shows the path its own way (decoded, here) renders every time, and right", async () => {
    const { counter, get } = await appWithNotFound((path) => `No page at ${path}`);
    const before = counter.renders;
    const res = await get("/a%20b");
    await get("/a%20b");
    expect(counter.renders).toBe(before + 2);
    expect(await res.text()).toContain("No page at /a b");
  });
});

describe("HEAD over a real socket", () => {
  test("a prerendered page says the length its GET body has, in the coding asked for; a streamed page says chunked", async () => {
    const server = await listenApp(FIXTURE);
    try {
      await server.prerendered();
      const port = server.port;
      const ask = (method: string, path: string, extra = "") =>
        rawExchange(port, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`);
      for (const extra of ["", "Accept-Encoding: gzip\r\n"]) {
        const [head, get] = [await ask("HEAD", "/prerendered", extra), await ask("GET", "/prerendered", extra)];
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        expect(Number(head.headers["content-length"])).toBe(get.body.length);
        expect(head.headers["content-encoding"]).toBe(get.headers["content-encoding"]);
      }
      const stream = await ask("HEAD", "/stream");
      expect(stream.status).toBe(200);
      expect(stream.headers["content-length"]).toBeUndefined();
      expect(stream.headers["transfer-encoding"]).toBe("chunked");
    } finally {
      await server.stop();
    }
  });
});

describe("outside the request scope", () => {
  test("prerendered responses alone skip the monitor's request scope: every other request, an API one included, gets it", async () => {
    const scoped: string[] = [];
    const monitor: RequestMonitor = {
      request(request, _server, handle) {
        scoped.push(`${request.method} ${new URL(request.url).pathname}`);
        return handle();
      },
    };
    const app = createApp(testConfig(), await loadApp(), { assets: await clientAssets(), log: () => {}, monitor });
    await renderPrerenderedPages(app);
    const paths = [
      "/prerendered",
      "/__data/prerendered",
      "/nowhere",
      "/search",
      "/api/notes",
      "/api/nowhere",
      "/healthz",
      "/prerendered?x=1",
    ];
    for (const path of paths) await (await app.handle(new Request(`http://localhost${path}`))).arrayBuffer();
    await app.handle(new Request("http://localhost/prerendered", { method: "POST" }));
    expect(scoped).toEqual([
      "GET /search",
      "GET /api/notes",
      "GET /api/nowhere",
      "GET /healthz",
      "GET /prerendered",
      "POST /prerendered",
    ]);
  });
});

describe("revalidation", () => {
  test("after the route's age: the prerendered page still goes out, then one re-render under concurrent requests replaces it", async () => {
    const before = renderOf(await (await t.request("/prerendered")).text());
    let open!: () => void;
    prerenderState.gate = new Promise<void>((resolve) => (open = resolve));
    const rendersBefore = prerenderState.renders;
    setSystemTime(Date.now() + 61_000);
    const during = await Promise.all(Array.from({ length: 20 }, () => t.request("/prerendered").then((r) => r.text())));
    for (const html of during) expect(renderOf(html)).toBe(before);
    open();
    prerenderState.gate = undefined;
    const after = await renderAfter(before);
    expect(prerenderState.renders).toBe(rendersBefore + 1);
    expect(after).toBe(prerenderState.renders);
  });

  test("a failing re-render keeps the old page and is reported once, with its digest", async () => {
    const before = renderOf(await (await t.request("/prerendered")).text());
    captured.length = 0;
    prerenderState.fail = true;
    // Past the age of the page the test before stored at its own (mocked) time, too.
    setSystemTime(Date.now() + 200_000);
    await t.request("/prerendered");
    await reported.until(() => captured.length > 0, "the failed re-render's report");
    for (let i = 0; i < 10; i++) expect(renderOf(await (await t.request("/prerendered")).text())).toBe(before);
    expect(captured).toHaveLength(1);
    expect((captured[0]![0] as Error).message).toContain("re-render");
    expect(captured[0]![1]).toMatchObject({ phase: "prerender", route: "/prerendered" });
    expect(captured[0]![1].digest).toMatch(/^[0-9a-z]{10}$/);
  });
});

describe("a page under a layout", () => {
  let loads = 0;
  function Layout() {
    return (
      <div id="hub">
        hub {useLoaderData<() => { title: string }>().title} <Outlet />
      </div>
    );
  }
  const Page = () => <p id="hub-page">{useRouteLoaderData<() => { title: string }>("hub")?.title} page</p>;

  test("is stored with every level, and served with no loader run again", async () => {
    const definition = await loadApp();
    const layout = { path: "/hub", id: "hub", component: Layout, loader: () => ({ title: `layout ${++loads}` }) };
    const app: AppDefinition = {
      ...definition,
      routes: [...definition.routes, { ...layout, children: [{ path: "page", component: Page, prerender: true }] }],
    };
    const served = createApp(testConfig(), app, { assets: await clientAssets(), log: () => {} });
    await renderPrerenderedPages(served);
    const rendered = loads;
    for (let i = 0; i < 3; i++) {
      const res = await served.handle(new Request("http://localhost/hub/page"));
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(`<div id="hub">hub <!-- -->layout ${rendered}`);
      expect(html).toContain(`<p id="hub-page">layout ${rendered}<!-- --> page</p>`);
    }
    const data = await served.handle(new Request("http://localhost/__data/hub/page?_keep=1"));
    expect((await data.text()).split("\n")[0]).toContain(
      `"levels":[{"id":"hub","data":{"title":"layout ${rendered}"}},{"id":"/hub/page"`,
    );
    expect(loads).toBe(rendered);
  });
});

describe("what cannot be prerendered", () => {
  async function prerenderWith(loader: (ctx: LoaderContext) => unknown, path = "/marked"): Promise<unknown> {
    const definition = await loadApp();
    const app: AppDefinition = {
      ...definition,
      routes: [...definition.routes, { path, component: () => null, loader, prerender: true }],
    };
    return renderPrerenderedPages(createApp(testConfig(), app, { assets: await clientAssets(), log: () => {} })).then(
      () => undefined,
      (e: unknown) => e,
    );
  }

  test.each([
    ["cookies", (ctx: LoaderContext) => ctx.cookies.get("session")],
    ["the header accept-language", (ctx: LoaderContext) => ctx.headers.get("accept-language")],
    ["search", (ctx: LoaderContext) => ctx.search.get("q")],
  ])("a loader that reads %s fails, naming the route", async (what, loader) => {
    const error = await prerenderWith(loader);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`route /marked is marked prerender, but its loader reads ${what}`);
  });

  test("a loader that fails or ends in an outcome fails, naming the route", async () => {
    const error = await prerenderWith(() => {
      throw new Error("no database at build time");
    });
    expect((error as Error).message).toBe(
      "route /marked is marked prerender, but its render answered Error: no database at build time",
    );
  });

  test("a loader that sets a cookie fails, naming the route: every visitor would get it", async () => {
    const error = await prerenderWith((ctx) => ctx.cookies.set("seen", "1"));
    expect((error as Error).message).toMatch(
      /^route \/marked is marked prerender, but (its loader reads cookies|it sets a cookie)$/,
    );
  });

  test("a page under a layout whose loader reads cookies fails, naming the page's route", async () => {
    const definition = await loadApp();
    const layout = {
      path: "/hub",
      component: Outlet,
      loader: (ctx: LoaderContext) => ctx.cookies.get("session") ?? null,
    };
    const app: AppDefinition = {
      ...definition,
      routes: [
        ...definition.routes,
        { ...layout, children: [{ path: "page", component: () => null, prerender: true }] },
      ],
    };
    const error = await renderPrerenderedPages(
      createApp(testConfig(), app, { assets: await clientAssets(), log: () => {} }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe("route /hub/page is marked prerender, but its loader reads cookies");
  });

  test("a layout marked prerender fails at once: its child is the page to mark", async () => {
    const definition = await loadApp();
    const app: AppDefinition = {
      ...definition,
      routes: [
        ...definition.routes,
        { path: "/hub", component: Outlet, prerender: true, children: [{ index: true, component: () => null }] },
      ],
    };
    const assets = await clientAssets();
    expect(() => createApp(testConfig(), app, { assets, log: () => {} })).toThrow(
      "route /hub is marked prerender, but it has children",
    );
  });

  test("a path with parameters fails at once", async () => {
    await expect(prerenderWith(() => null, "/things/:id")).rejects.toThrow(
      "route /things/:id is marked prerender, but its path has parameters",
    );
  });
});
