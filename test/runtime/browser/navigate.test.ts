// The navigator (navigate.ts) in happy-dom against the fixture app's real server: which loaders each move runs
// (the layouts' and pages' run counts say), the levels it keeps, the history entry it leaves, what a GET form,
// an action and a prefetch do.
import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import type { FetcherRequest, Pending, Submission } from "../../../src/runtime/navigation.ts";
import { PREFETCH_FRESH_MS } from "../../../src/runtime/browser/prefetch.ts";
import { dataOf, liveFixture, openPage, type OpenedPage } from "./live-fixture.ts";

const live = liveFixture();

afterEach(() => void setSystemTime());

type Loads = { loads: number };
type Item = { id: string; loads: number };
type Shop = { loads: number; cart: number };

const planLoads = (page: OpenedPage) => dataOf<Loads>(page.store, "plan").loads;
const item = (page: OpenedPage) => dataOf<Item>(page.store, "/plan/items/:id");
/** A plan item no test has loaded yet: its loader's count starts at 1. */
const freshItem = () => `/plan/items/p${Math.random().toString(36).slice(2, 8)}`;

function fields(entries: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(entries)) formData.append(name, value);
  return { body: new URLSearchParams(entries), formData };
}

/** A form's submission as <Form> hands it on; the fallback is never needed against this server. */
function submission(action: string, entries: Record<string, string>, more: Partial<Submission> = {}): Submission {
  return {
    action: new URL(action, location.href).href,
    ...fields(entries),
    fallback: () => expect.unreachable("fallback"),
    ...more,
  };
}

/** A fetcher's post; resolves with what its `done` was given. */
async function fetcherPost(page: OpenedPage, href: string, entries: Record<string, string>) {
  let answer: { data: unknown } | undefined | "not called" = "not called" as
    | { data: unknown }
    | undefined
    | "not called";
  const request: FetcherRequest = {
    href: new URL(href, location.href).href,
    ...fields(entries),
    signal: new AbortController().signal,
    done: (a) => (answer = a),
  };
  await page.navigator.fetch(request);
  return answer;
}

describe("links", () => {
  test.each([
    ["between children of a layout: the layout keeps its data (its loader does not run)", "/plan/items/2", 0, 1],
    ["a new search: every level loads", "/plan/items/1?sort=new", 1, 1],
    ["the page showing, again: every level loads, in the same history entry", "/plan/items/1", 1, 0],
    [
      "a route's shouldRevalidate widens the default: the layout loads for the item it names",
      "/plan/items/fresh",
      1,
      1,
    ],
  ])("%s", async (_, to, layoutRuns, newEntries) => {
    const page = await openPage(live.origin, "/plan/items/1");
    const [layout, entries] = [planLoads(page), history.length];
    await page.navigator.go(to, {});
    expect(location.pathname + location.search).toBe(to);
    expect(item(page).id).toBe(new URL(to, location.href).pathname.split("/").at(-1)!);
    expect(planLoads(page)).toBe(layout + layoutRuns);
    expect(history.length).toBe(entries + newEntries);
  });

  test("a loader's redirect: the target in the entry the link was to have, the redirecting URL never in history", async () => {
    const page = await openPage(live.origin, "/items/1");
    const entries = history.length;
    await page.navigator.go("/redirect", {});
    expect(location.pathname).toBe("/");
    expect(history.length).toBe(entries + 1);
  });
});

describe("after an action", () => {
  test("a fetcher whose action redirects: every level loads again, the layout's cart count included; no new entry for this page", async () => {
    const page = await openPage(live.origin, "/shop/items/7");
    const before = dataOf<Shop>(page.store, "shop");
    const entries = history.length;
    expect(await fetcherPost(page, "/shop/cart", { returnTo: "/shop/items/7" })).toBeUndefined();
    const after = dataOf<Shop>(page.store, "shop");
    expect(after.cart).toBe(before.cart + 1);
    expect(after.loads).toBe(before.loads + 1);
    expect(location.pathname).toBe("/shop/items/7");
    expect(history.length).toBe(entries);
  });

  test("a fetcher's action with data: the page's levels load again, the layout's too", async () => {
    const page = await openPage(live.origin, "/plan/items/1");
    const [layout, loads] = [planLoads(page), item(page).loads];
    expect(await fetcherPost(page, "/plan/items/1", { note: "loud" })).toEqual({ data: { saved: "loud" } });
    expect(planLoads(page)).toBeGreaterThan(layout);
    expect(item(page).loads).toBeGreaterThan(loads);
  });

  test.each([
    ["data", "/plan/items/1", "/plan/items/1", { note: "fine" }, true],
    ["a 422", "/plan/items/1", "/plan/items/1", { note: " " }, false],
    ["a redirect", "/shop/items/7", "/shop/cart", { returnTo: "/shop/items/7" }, true],
    ["a not-found", "/fetchers", "/fetchers", { intent: "missing" }, false],
  ])(
    "a fetcher's post says whether it succeeded, as a <Form>'s does (its form is reset then): %s",
    async (_, path, href, entries, ok) => {
      const page = await openPage(live.origin, path);
      const request: FetcherRequest = {
        href: new URL(href, location.href).href,
        ...fields(entries),
        signal: new AbortController().signal,
        done: () => {},
      };
      expect(await page.navigator.fetch(request)).toBe(ok);
    },
  );

  test("shouldRevalidate narrows after the quiet action: the layout keeps its data, the page's level loads", async () => {
    const page = await openPage(live.origin, "/plan/items/1");
    const [layout, loads] = [planLoads(page), item(page).loads];
    expect(await fetcherPost(page, "/plan/quiet", {})).toEqual({ data: { quiet: true } });
    expect(planLoads(page)).toBe(layout);
    expect(item(page).loads).toBe(loads + 1);
  });

  test("a <Form> post whose action redirects pushes an entry, and Back returns to the form's page", async () => {
    const page = await openPage(live.origin, "/session");
    const entries = history.length;
    expect(await page.navigator.submit(submission("/session", { name: "ada" }))).toBe(true);
    expect(location.pathname).toBe("/account");
    expect(history.length).toBe(entries + 1);
    const popped = new Promise<void>((resolve) => window.addEventListener("popstate", () => resolve(), { once: true }));
    history.back();
    await popped;
    // What the browser entry does on popstate.
    await page.navigator.go(location.href, { pop: true });
    expect(location.pathname).toBe("/session");
    expect(dataOf<{ name: string | null }>(page.store, "/session").name).toBe("ada");
    expect(await page.navigator.submit(submission("/session", { intent: "sign-out" }))).toBe(true);
  });

  test("<Form replace>: the page after the post takes the form's entry", async () => {
    const page = await openPage(live.origin, "/session?replace");
    const entries = history.length;
    expect(await page.navigator.submit(submission("/session?replace", { name: "grace" }, { replace: true }))).toBe(
      true,
    );
    expect(location.pathname).toBe("/account");
    expect(history.length).toBe(entries);
    await page.navigator.submit(submission("/session", { intent: "sign-out" }));
  });

  test("an action answering 422: no level loads again (they show the data they had), the answer shows", async () => {
    const page = await openPage(live.origin, "/plan/items/1");
    const [layout, loads] = [planLoads(page), item(page).loads];
    expect(await page.navigator.submit(submission("/plan/items/1", { note: " " }))).toBe(false);
    expect(page.store.getState().page.payload.actionData).toEqual({ error: "A note is required" });
    expect(planLoads(page)).toBe(layout);
    expect(item(page).loads).toBe(loads);
  });

  test("an action answering 200 with data: every level loads again", async () => {
    const page = await openPage(live.origin, "/plan/items/1");
    const [layout, loads] = [planLoads(page), item(page).loads];
    expect(await page.navigator.submit(submission("/plan/items/1", { note: "kept" }))).toBe(true);
    expect(planLoads(page)).toBe(layout + 1);
    expect(item(page).loads).toBe(loads + 1);
  });

  test("fetchers holding loaded data are told to load it again when an action or a revalidation loads the page's levels, never by a link or a 422", async () => {
    const page = await openPage(live.origin, "/plan/items/1");
    const revalidations = () => page.store.getState().revalidated ?? 0;
    await page.navigator.go("/plan/items/2", {});
    expect(revalidations()).toBe(0);
    expect(await page.navigator.submit(submission("/plan/items/2", { note: " " }))).toBe(false);
    expect(revalidations()).toBe(0);
    expect(await page.navigator.submit(submission("/plan/items/2", { note: "kept" }))).toBe(true);
    expect(revalidations()).toBe(1);
    await page.navigator.revalidate();
    expect(revalidations()).toBe(2);
    await page.navigator.go("/plan/items/1", {});
    expect(revalidations()).toBe(2);
  });
});

describe("a GET form", () => {
  test("navigates to its action with its fields as the whole search; the pending state carries the fields", async () => {
    const page = await openPage(live.origin, "/search?q=old");
    const pendings: Pending[] = [];
    page.store.subscribe(() => {
      const { pending } = page.store.getState();
      if (pending) pendings.push(pending);
    });
    expect(await page.navigator.submit(submission("/search?page=3", { q: "new words" }, { method: "get" }))).toBe(true);
    expect(location.pathname + location.search).toBe("/search?q=new+words");
    expect(dataOf<{ q: string }>(page.store, "/search").q).toBe("new words");
    expect(pendings.map((p) => [p.kind, p.formData?.get("q")])).toEqual([["loading", "new words"]]);
  });
});

describe("prefetch", () => {
  test("the click shows the prefetched data: the page's loader ran once for both", async () => {
    const page = await openPage(live.origin, "/prefetch");
    const target = freshItem();
    void page.navigator.prefetch(target);
    await page.navigator.go(target, {});
    expect(item(page).loads).toBe(1);
  });

  test.each([
    [
      "it is used once: the next navigation to the page asks again",
      (page: OpenedPage, target: string) =>
        page.navigator.go(target, {}).then(() => page.navigator.go("/prefetch", {})),
    ],
    [
      "only while fresh: a click after PREFETCH_FRESH_MS asks again",
      () => void setSystemTime(new Date(Date.now() + PREFETCH_FRESH_MS + 1)),
    ],
    ["an action throws it away: the click asks again", (page: OpenedPage) => fetcherPost(page, "/plan/quiet", {})],
  ])("%s", async (_, between) => {
    const page = await openPage(live.origin, "/prefetch");
    const target = freshItem();
    await page.navigator.prefetch(target);
    await between(page, target);
    await page.navigator.go(target, {});
    expect(item(page).loads).toBe(2);
  });

  test("inside a layout it asks for what the click would load: the layout is kept, its loader not run", async () => {
    const page = await openPage(live.origin, "/plan/items/1");
    const layout = planLoads(page);
    const target = freshItem();
    void page.navigator.prefetch(target);
    await page.navigator.go(target, {});
    expect(item(page).loads).toBe(1);
    expect(planLoads(page)).toBe(layout);
  });
});
