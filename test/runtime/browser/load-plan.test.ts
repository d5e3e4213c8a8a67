// planLoad and holdOver (load-plan.ts): which levels of the next page load and which keep what the page shows,
// by React Router's rules and each route's shouldRevalidate, and the answer marked for the levels kept.
import { describe, expect, test } from "bun:test";
import fixtureApp from "../../fixtures/app/app.ts";
import { holdOver, planLoad, type LoadCause, type SubmittedForm } from "../../../src/runtime/browser/load-plan.ts";
import type { NavState } from "../../../src/runtime/navigation.ts";
import type { LevelPayload, PagePayload } from "../../../src/runtime/page-payload.ts";
import type { RouteDefinition } from "../../../src/runtime/route.ts";
import { routeTree } from "../../../src/runtime/route-tree.ts";
import type { ShouldRevalidateArgs } from "../../../src/runtime/should-revalidate.ts";
import { pagePayload } from "../../../src/server/testing/dom.tsx";

const fixture = routeTree(fixtureApp.routes);
const navigation: LoadCause = { kind: "navigation" };
const form: SubmittedForm = {
  method: "POST",
  action: "/plan/items/1",
  encType: "application/x-www-form-urlencoded",
  data: new FormData(),
};
const action = (status?: number, result?: unknown): LoadCause => ({ kind: "action", form, status, result });

/** The page showing at `url` with these levels, each with its data. */
function shown(url: string, levels: LevelPayload[], over: Partial<PagePayload> = {}): NavState {
  const { pathname, search } = new URL(url, "http://x");
  const page = pagePayload({ path: pathname, search: search.slice(1), levels, ...over });
  return {
    path: pathname,
    search: search.slice(1),
    page: { payload: page, data: new Map(levels.map((l) => [l.id, l.data ?? null])) },
  };
}

const planItem = (url = "/plan/items/1") =>
  shown(url, [
    { id: "plan", data: { loads: 1 } },
    { id: "/plan/items/:id", data: { id: "1" } },
  ]);
const keepOf = (state: NavState, to: string, cause: LoadCause = navigation) =>
  planLoad(state, new URL(to, "http://x"), fixture, cause).keep;

describe("React Router's defaults", () => {
  test("between children, the layout is kept and the child loads; the server is told to keep the one", () => {
    expect(planLoad(planItem(), new URL("http://x/plan/items/2"), fixture, navigation)).toEqual({
      keep: [true, false],
      keptLevels: 1,
    });
  });

  test("a new search, the same URL, a revalidation: every level loads", () => {
    expect(keepOf(planItem(), "/plan/items/2?sort=new")).toEqual([false, false]);
    expect(keepOf(planItem(), "/plan/items/1")).toEqual([false, false]);
    expect(keepOf(planItem(), "/plan/items/1", { kind: "revalidation" })).toEqual([false, false]);
  });

  test("after an action with data or a redirect, every level loads; after a 4xx or 5xx, none (the server is still told of one only)", () => {
    expect(keepOf(planItem(), "/plan/items/1", action(200, { saved: "x" }))).toEqual([false, false]);
    expect(keepOf(planItem(), "/plan/items/2", action())).toEqual([false, false]);
    expect(planLoad(planItem(), new URL("http://x/plan/items/1"), fixture, action(422))).toEqual({
      keep: [true, true],
      keptLevels: 1,
    });
  });

  test("another route, or a level whose params changed, loads", () => {
    expect(keepOf(planItem(), "/shop/items/1")).toEqual([false, false]);
    const params = shown("/shop/c/a/1", [
      { id: "shop", data: {} },
      { id: "/shop/c/:category", data: {} },
      { id: "/shop/c/:category/:id", data: {} },
    ]);
    expect(keepOf(params, "/shop/c/b/1")).toEqual([true, false, false]);
    expect(keepOf(params, "/shop/c/a/2")).toEqual([true, true, false]);
  });

  test("a level that does not show its data whole is never kept: a streamed value still coming, a page of the app's fallback", () => {
    const coming = Object.assign(new Promise(() => {}), { status: "pending" });
    const streaming = shown("/plan/items/1", [
      { id: "plan", data: { later: coming } },
      { id: "/plan/items/:id", data: {} },
    ]);
    streaming.page.data = new Map([
      ["plan", { later: coming }],
      ["/plan/items/:id", {}],
    ]);
    expect(keepOf(streaming, "/plan/items/2")).toEqual([false, false]);
    const failed = shown("/plan/items/1", [{ id: "plan" }, { id: "/plan/items/:id" }], {
      error: { digest: "0123456789", side: "server" },
    });
    expect(keepOf(failed, "/plan/items/2")).toEqual([false, false]);
  });
});

describe("shouldRevalidate", () => {
  /** /a (outer) > b/:id (middle) > c/:x (page), each with the shouldRevalidate given, its calls recorded. */
  function nested(outer?: (a: ShouldRevalidateArgs) => boolean, middle?: (a: ShouldRevalidateArgs) => boolean) {
    const calls: Array<[string, ShouldRevalidateArgs]> = [];
    const record = (name: string, decide?: (a: ShouldRevalidateArgs) => boolean) =>
      decide && ((args: ShouldRevalidateArgs) => (calls.push([name, args]), decide(args)));
    const Page = () => null;
    const routes: RouteDefinition[] = [
      {
        path: "/a",
        component: Page,
        shouldRevalidate: record("outer", outer),
        children: [
          {
            path: "b/:id",
            component: Page,
            shouldRevalidate: record("middle", middle),
            children: [{ path: "c/:x", component: Page }],
          },
        ],
      },
    ];
    const state = shown("/a/b/1/c/1", [
      { id: "/a", data: {} },
      { id: "/a/b/:id", data: {} },
      { id: "/a/b/:id/c/:x", data: {} },
    ]);
    return { tree: routeTree(routes), state, calls };
  }

  test("is asked with React Router's arguments, its answer taken over the default", () => {
    const { tree, state, calls } = nested((args) => !args.defaultShouldRevalidate);
    const plan = planLoad(state, new URL("http://x/a/b/1/c/2"), tree, action(201, { ok: true }));
    expect(plan.keep).toEqual([true, false, false]);
    const [name, args] = calls[0]!;
    expect(name).toBe("outer");
    expect({ ...args, currentUrl: args.currentUrl.href, nextUrl: args.nextUrl.href }).toEqual({
      currentUrl: "http://x/a/b/1/c/1",
      currentParams: { id: "1", x: "1" },
      nextUrl: "http://x/a/b/1/c/2",
      nextParams: { id: "1", x: "2" },
      formMethod: "POST",
      formAction: "/plan/items/1",
      formEncType: "application/x-www-form-urlencoded",
      formData: form.data,
      actionStatus: 201,
      actionResult: { ok: true },
      defaultShouldRevalidate: true,
    });
  });

  test("a level kept below one that loads: the server is told to keep none, and the answer is held over for it", () => {
    const { tree, state } = nested(
      () => true,
      () => false,
    );
    const plan = planLoad(state, new URL("http://x/a/b/1/c/2"), tree, navigation);
    expect(plan).toEqual({ keep: [false, true, false], keptLevels: 0 });
    const answer = pagePayload({
      levels: [
        { id: "/a", data: { n: 2 } },
        { id: "/a/b/:id", data: { n: 2 } },
        { id: "/a/b/:id/c/:x", data: { n: 2 } },
      ],
    });
    expect(holdOver(answer, plan).levels).toEqual([
      { id: "/a", data: { n: 2 } },
      { id: "/a/b/:id", kept: true },
      { id: "/a/b/:id/c/:x", data: { n: 2 } },
    ]);
  });

  test("is not asked for a level that must load (a new route)", () => {
    const { tree, state, calls } = nested(
      () => false,
      () => false,
    );
    planLoad({ ...state, path: "/elsewhere" }, new URL("http://x/a/b/1/c/2"), tree, navigation);
    expect(calls).toEqual([]);
  });
});

describe("holdOver", () => {
  test("leaves the answer as it is when it keeps nothing more; never holds a level below the answer's fallback", () => {
    const answer = pagePayload({
      levels: [
        { id: "plan", kept: true },
        { id: "/plan/items/:id", data: {} },
      ],
    });
    expect(holdOver(answer, { keep: [true, false], keptLevels: 1 })).toBe(answer);
    const failed = pagePayload({
      levels: [{ id: "plan", data: {} }, { id: "/plan/items/:id" }],
      boundary: { id: "plan", depth: 1 },
      outcome: { kind: "not-found", status: 404 },
    });
    expect(holdOver(failed, { keep: [true, true], keptLevels: 1 }).levels).toEqual([
      { id: "plan", kept: true },
      { id: "/plan/items/:id" },
    ]);
  });

  test("a level it holds keeps the parse of the new search the server sent (useRouteSearch), not its data", () => {
    const answer = pagePayload({
      levels: [
        { id: "plan", data: { loads: 2 }, query: { sort: "old" } },
        { id: "/plan/items/:id", data: {} },
      ],
    });
    expect(holdOver(answer, { keep: [true, false], keptLevels: 0 }).levels[0]).toStrictEqual({
      id: "plan",
      kept: true,
      query: { sort: "old" },
    });
  });
});
