// Partial prerendering on the shell-app fixture: every visitor gets the same shell bytes but the nonce, and holes
// resumed with their own data; the loader still decides the status before a byte; HEAD, middleware, nested holes,
// an error in a hole with its digest; requests the shell cannot answer render whole; and shells that cannot be
// prerendered refused by name, when the app is made or when it starts.
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Suspense } from "react";
import { useLoaderData, type LoaderContext, type RouteDefinition } from "brisk";
import type { ServedApp } from "brisk/test";
import { createApp, renderPrerenderedPages } from "../../../src/server/create-app.ts";
import type { ErrorContext } from "../../../src/server/request/context.ts";
import { PrerenderError } from "../../../src/server/prerender/prerender-routes.ts";
import { clientBuild } from "../../../src/server/testing/client.ts";
import { loadApp } from "../../../src/server/testing/app-module.ts";
import { revive } from "../../../src/runtime/browser/codec.ts";
import { OUTCOME_MARKER } from "../../../src/runtime/outcome.ts";
import type { PagePayload } from "../../../src/runtime/page-payload.ts";
import { FIXTURE_PUBLIC_DIR, serveWith, testConfig } from "../../support/app.ts";

const SHELL_APP = join(import.meta.dir, "../../fixtures/shell-app/app.ts");

let t: ServedApp;
const captured: Array<{ error: unknown; digest: string | undefined }> = [];
beforeAll(async () => {
  const capture = (error: unknown, context: ErrorContext) => void captured.push({ error, digest: context.digest });
  t = await serveWith({ app: SHELL_APP, publicDir: FIXTURE_PUBLIC_DIR }, { capture });
  await t.prerendered();
});

const nonceOf = (res: Response) =>
  /script-src 'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")![1]!;

/** The boot script's opening, written after the shell (resume-shell.ts). */
const BOOT = /<script nonce="[^"]*">window\.__BRISK__=(JSON\.parse\('(?:[^'\\]|\\.)*'\));/;

/** A document of the shell route as a visitor with these cookies gets it, its nonce and its parts. */
async function visit(path: string, cookie = "", init: RequestInit = {}) {
  const res = await t.request(path, { ...init, headers: { cookie, accept: "text/html" } });
  const html = await res.text();
  const boot = BOOT.exec(html);
  return {
    res,
    html,
    nonce: nonceOf(res),
    /** Everything before the boot script: the shell's bytes. */
    shell: boot ? html.slice(0, boot.index) : undefined,
    page: boot ? (revive(new Function(`return ${boot[1]}`)().page) as PagePayload) : undefined,
  };
}

const hello = (html: string) => /<output id="hello">([^<]*)<\/output>/.exec(html)?.[1];

describe("a shell route's document", () => {
  test("is the same shell bytes for every visitor but the nonce, each with their own name in the hole", async () => {
    const [ada, bo, nobody] = await Promise.all([
      visit("/shell", "name=Ada"),
      visit("/shell", "name=Bo"),
      visit("/shell"),
    ]);
    for (const v of [ada, bo, nobody]) expect(v.res.status).toBe(200);
    expect(new Set([ada.nonce, bo.nonce, nobody.nonce]).size).toBe(3);
    const blank = (v: typeof ada) => v.shell!.replaceAll(v.nonce, "NONCE");
    expect(blank(ada)).toBe(blank(bo));
    expect(blank(ada)).toBe(blank(nobody));
    // The shell has the static parts and the hole's fallback, and no one's name.
    expect(ada.shell).toContain("rendered once, when the server started");
    expect(ada.shell).toContain('<template id="B:0"></template><p class="waiting">Greeting…</p>');
    expect(ada.shell).not.toContain("Ada");
    expect([hello(ada.html), hello(bo.html), hello(nobody.html)]).toEqual(["Ada", "Bo", "nobody"]);
    // The holes come after the shell, resumed into React's boundary, and the document ends once.
    expect(ada.html.indexOf('<div hidden id="S:0"><output id="hello">Ada</output></div>')).toBeGreaterThan(
      ada.shell!.length,
    );
    expect(ada.html).toContain('$RC("B:0","S:0")');
    expect(ada.html.match(/<\/body>/g)).toHaveLength(1);
    expect(ada.html.endsWith("</body></html>")).toBe(true);
  });

  test("carries this request's page and nonce in its boot script, and the nonce on every inline script and style", async () => {
    const ada = await visit("/shell", "name=Ada");
    expect(ada.page?.levels).toEqual([{ id: "/shell", data: { name: "Ada", hole: null } }]);
    expect(ada.page?.path).toBe("/shell");
    const tags = [...ada.html.matchAll(/<(script|style)\b[^>]*>/g)].map((m) => m[0]);
    expect(tags.length).toBeGreaterThanOrEqual(4);
    for (const tag of tags) expect(tag).toContain(`nonce="${ada.nonce}"`);
    expect(ada.res.headers.get("cache-control")).toBe("private, no-cache");
    expect(ada.res.headers.get("x-request-id")).toBeTruthy();
  });

  test("goes gzip'd as the shell's stored member and the rest compressed, the same page once decoded", async () => {
    // Joined from the shell's member where no middleware can rewrite the body; compressed as any page where one can.
    for (const [path, joined] of [
      ["/area/greeting", true],
      ["/shell", false],
    ] as const) {
      const plain = await visit(path, "name=Ada");
      for (const accepted of ["gzip", "br, gzip"]) {
        const res = await t.request(path, { headers: { cookie: "name=Ada", "accept-encoding": accepted } });
        // compress.ts, as for any page, prefers brotli where it is taken.
        const coding = joined || accepted === "gzip" ? "gzip" : "br";
        expect(res.headers.get("content-encoding")).toBe(coding);
        expect(res.headers.get("vary")).toMatch(/^Cookie, Accept-Encoding$/i);
        const bytes = new Uint8Array(await res.arrayBuffer());
        if (joined) expect(res.headers.get("content-length")).toBe(String(bytes.length));
        const decoded = (coding === "gzip" ? gunzipSync(bytes) : brotliDecompressSync(bytes)).toString();
        // The area's layout counts its visits, in its data and its hole.
        const same = (html: string, nonce: string) =>
          html.replaceAll(nonce, "N").replace(/("visits":|"visits">)\d+/g, "$1V");
        expect(same(decoded, nonceOf(res))).toBe(same(plain.html, plain.nonce));
      }
    }
    const brotli = await t.request("/shell", { headers: { cookie: "name=Ada", "accept-encoding": "br" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(hello(brotliDecompressSync(new Uint8Array(await brotli.arrayBuffer())).toString())).toBe("Ada");
  });

  test("runs the route's middleware on every request", async () => {
    const [a, b] = await Promise.all([visit("/shell"), visit("/shell")]);
    expect([a.res.headers.get("x-middleware"), b.res.headers.get("x-middleware")]).toEqual(["ran", "ran"]);
  });

  test("is decided by the loader before a byte: notFound() a 404 page, a redirect a 302, neither with the shell", async () => {
    const missing = await visit("/shell", "outcome=not-found");
    expect(missing.res.status).toBe(404);
    expect(missing.html).toContain("<h1>Not found</h1>");
    expect(missing.html).not.toContain("The same for everyone");
    const moved = await t.request("/shell", { headers: { cookie: "outcome=redirect" } });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("/");
    expect(await moved.text()).toBe("");
  });

  test("answers a HEAD with the GET's status and headers and no body", async () => {
    const head = await t.request("/shell", { method: "HEAD", headers: { cookie: "name=Ada" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(head.headers.get("x-middleware")).toBe("ran");
    expect(await head.text()).toBe("");
    const gone = await t.request("/shell", { method: "HEAD", headers: { cookie: "outcome=not-found" } });
    expect(gone.status).toBe(404);
  });

  test("an error in a hole: still 200, the hole left to the client with the digest the error was reported under", async () => {
    const before = captured.length;
    const failed = await visit("/shell", "hole=fails");
    expect(failed.res.status).toBe(200);
    const reported = captured.slice(before);
    expect(reported.map(({ error }) => (error as Error).message)).toEqual(["the greeting failed"]);
    const digest = reported[0]!.digest!;
    expect(digest).toMatch(/^[0-9a-z]+$/);
    expect(failed.html).toContain(`$RX("B:0","${digest}")`);
    expect(hello(failed.html)).toBeUndefined();
  });

  test("an outcome in a hole: still 200, the outcome left to the client as streamed sections leave it", async () => {
    const late = await visit("/shell", "hole=not-found");
    expect(late.res.status).toBe(200);
    expect(late.html).toContain(`$RX("B:0","${OUTCOME_MARKER}:not-found")`);
  });

  test("a hole that waits on more than its data streams in after the shell", async () => {
    const res = await t.request("/shell", { headers: { cookie: "name=Ada; hole=waits" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBeNull();
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("rendered once, when the server started");
    expect(first).not.toContain("Ada");
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(hello(rest)).toBe("Ada");
    expect(rest.endsWith("</body></html>")).toBe(true);
  });

  test("a layout's hole and the page's are both resumed with this request's data", async () => {
    const first = await visit("/area/greeting", "name=Ada");
    const second = await visit("/area/greeting", "name=Bo");
    const visits = (html: string) => Number(/<output id="visits">(\d+)<\/output>/.exec(html)?.[1]);
    expect(visits(second.html)).toBe(visits(first.html) + 1);
    expect([hello(first.html), hello(second.html)]).toEqual(["Ada", "Bo"]);
    expect(first.shell!.replaceAll(first.nonce, "N")).toBe(second.shell!.replaceAll(second.nonce, "N"));
  });

  test("with a search, the page renders whole, its hole in place", async () => {
    const searched = await visit("/shell?from=mail", "name=Ada");
    expect(searched.res.status).toBe(200);
    expect(searched.html).toContain('<!--$--><output id="hello">Ada</output><!--/$-->');
    expect(searched.html).not.toContain("<template");
  });

  test("page data for client navigation is the route's data as for any page", async () => {
    const res = await t.request("/__data/shell", { headers: { cookie: "name=Ada" } });
    expect(res.status).toBe(200);
    const payload = JSON.parse((await res.text()).split("\n")[0]!);
    expect(payload.levels).toEqual([{ id: "/shell", data: { name: "Ada", hole: null } }]);
  });
});

/** The shell app with `routes` added, made (and started when `start`) as a production server is. */
async function appWith(routes: RouteDefinition[]) {
  const definition = await loadApp(SHELL_APP);
  const { assets } = await clientBuild({ app: SHELL_APP, publicDir: FIXTURE_PUBLIC_DIR });
  return createApp(
    testConfig(),
    { ...definition, routes: [...definition.routes, ...routes] },
    { assets, log: () => {} },
  );
}

const nameLoader = ({ cookies }: LoaderContext) => ({ name: cookies.get("name") ?? null });

function ReadsOutside() {
  const { name } = useLoaderData<typeof nameLoader>();
  return <p>{name}</p>;
}

function Fails(): never {
  throw new Error("the shell cannot render");
}

function Hole() {
  const { name } = useLoaderData<typeof nameLoader>();
  return <output>{name}</output>;
}

const Holed = () => (
  <Suspense fallback={null}>
    <Hole />
  </Suspense>
);

describe("a shell that cannot be prerendered", () => {
  test("a component that reads the visitor's cookie outside a <Suspense> fails the start, naming the route", async () => {
    const app = await appWith([{ path: "/reads-cookie", shell: true, loader: nameLoader, component: ReadsOutside }]);
    const start = renderPrerenderedPages(app);
    await expect(start).rejects.toThrow(PrerenderError);
    await expect(start).rejects.toThrow(
      /^route \/reads-cookie is a shell, but a component outside every <Suspense> reads/,
    );
  });

  test("a shell that fails to render fails the start with its error", async () => {
    const app = await appWith([{ path: "/fails", shell: true, component: Fails }]);
    await expect(renderPrerenderedPages(app)).rejects.toThrow(
      "route /fails is a shell, but its shell failed to render: Error: the shell cannot render",
    );
  });

  test("a page with no hole fails the start: it is a prerendered page", async () => {
    const app = await appWith([{ path: "/static", shell: true, component: () => <p>static</p> }]);
    await expect(renderPrerenderedPages(app)).rejects.toThrow(
      /^route \/static is a shell, but no component .* no hole/,
    );
  });

  test.each([
    ["/items/:id", { path: "/items/:id", shell: true, component: Holed }, "its path has parameters"],
    ["/both", { path: "/both", shell: true, prerender: true, component: Holed }, "it is marked prerender too"],
    [
      "/parent",
      { path: "/parent", shell: true, component: Holed, children: [{ index: true, component: Holed }] },
      "it has children",
    ],
  ] as Array<[string, RouteDefinition, string]>)("%s is refused when the app is made", async (path, route, why) => {
    const made = appWith([route]);
    await expect(made).rejects.toThrow(PrerenderError);
    await expect(made).rejects.toThrow(`route ${path} is marked shell, but ${why}`);
  });
});
