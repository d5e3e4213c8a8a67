// Outcomes: statuses, and redirect targets that are a programming error rather than a redirect (the targets
// themselves: redirect-target.test.ts).
import { beforeAll, describe, expect, test } from "bun:test";
import { routeTree } from "../../src/runtime/route-tree.ts";
import { Outcome, redirect } from "../../src/runtime/outcome.ts";
import type { Loader } from "../../src/runtime/route.ts";
import { createRequestContext } from "../../src/server/request/context.ts";
import { resolvePage } from "../../src/server/pages/resolve-page.ts";
import type { ResolveDeps } from "../../src/server/pages/page-request.ts";
import { clientAssets } from "../support/app.ts";

let deps: (loader: Loader) => ResolveDeps;
beforeAll(async () => {
  const assets = await clientAssets();
  deps = (loader) => ({
    match: routeTree([{ path: "/r", component: () => null, loader }]).match,
    assets,
    mode: "production",
    capture: () => {},
    cookies: { secure: true },
  });
});

async function resolve(loader: Loader) {
  const request = new Request("http://localhost/r");
  return resolvePage(
    { request, url: new URL(request.url), isData: false, context: createRequestContext(request) },
    deps(loader),
  );
}

describe("redirect", () => {
  test("is 307, or 308 when permanent, with the location", async () => {
    expect((await resolve(() => redirect("/a"))).payload.outcome).toEqual({
      kind: "redirect",
      location: "/a",
      status: 307,
    });
    expect((await resolve(() => redirect("/a", { permanent: true }))).status).toBe(308);
  });

  test.each(["javascript:alert(1)", "data:text/html,x", "//evil.example"])(
    "to %p is a 500 with a digest, not a redirect",
    async (target) => {
      const page = await resolve(() => redirect(target));
      expect(page.payload.outcome).toBeUndefined();
      expect(page.status).toBe(500);
      expect(page.payload.error?.digest).toMatch(/^[0-9a-z]{10}$/);
    },
  );

  test("outcomes carry their status", () => {
    expect(new Outcome("not-found").status).toBe(404);
    expect(new Outcome("forbidden").status).toBe(403);
    expect(new Outcome("unauthorized").status).toBe(401);
  });
});

describe("loader context", () => {
  test("holds decoded params, search, headers, cookies and the request's signal", async () => {
    let given: Parameters<Loader>[0] | undefined;
    const loader: Loader = (ctx) => void (given = ctx);
    const matcher = routeTree([{ path: "/users/:id", component: () => null, loader }]).match;
    const request = new Request("http://localhost/users/a%20b?x=1", {
      headers: { cookie: "sid=abc%3D; theme=dark", "x-test": "1" },
    });
    await resolvePage(
      { request, url: new URL(request.url), isData: false, context: createRequestContext(request) },
      { ...deps(() => null), match: matcher },
    );
    const ctx = given!;
    expect(ctx.params).toEqual({ id: "a b" });
    expect(ctx.search.get("x")).toBe("1");
    expect(ctx.headers.get("x-test")).toBe("1");
    expect([ctx.cookies.get("sid"), ctx.cookies.get("theme"), ctx.cookies.get("none")]).toEqual([
      "abc=",
      "dark",
      undefined,
    ]);
    expect(ctx.signal).toBe(request.signal);
  });
});
