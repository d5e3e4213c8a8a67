// live-fixture.ts (DOM test support): the fixture app on a real socket for a DOM test file, the page's window
// on its origin, and a page opened as the browser entry opens it: the boot state its document carries, the
// page view of it, a navigation store and the navigator over them.
import { afterAll, beforeAll } from "bun:test";
import fixtureApp from "../../fixtures/app/app.ts";
import { navigatorOptions } from "../../../src/runtime/browser/browser-navigation.ts";
import { navStore, type NavStore } from "../../../src/runtime/browser/nav-store.ts";
import { createNavigate, type Navigator } from "../../../src/runtime/browser/navigate.ts";
import { livePage } from "../../../src/runtime/browser/page-view.ts";
import type { BootState } from "../../../src/runtime/page-payload.ts";
import type { ErrorReport } from "../../../src/runtime/report.ts";
import { routeTree } from "../../../src/runtime/route-tree.ts";
import { bootState } from "../../support/page-state.ts";
import { start, type Running } from "../../support/process.ts";

export const tree = routeTree(fixtureApp.routes);

export interface LiveFixture {
  /** The server's origin; set by the file's beforeAll. */
  readonly origin: string;
}

/** Call at a test file's top level: the fixture app runs for its tests, stopped after them. */
export function liveFixture(): LiveFixture {
  let server: Running | undefined;
  let origin = "";
  beforeAll(async () => {
    server = start(["bun", `${import.meta.dir}/fixture-server.ts`], {
      env: { ...process.env, NODE_ENV: "production" },
    });
    const listening = new URL(/listening (\S+)/.exec(await server.waitForOutput(/listening \S+\n/, 60_000))![1]!);
    // By the name happy-dom treats as a secure context, as Chromium does 127.0.0.1: the session's Secure cookie is kept.
    origin = `http://localhost:${listening.port}`;
  }, 60_000);
  afterAll(() => server?.kill());
  return {
    get origin() {
      return origin;
    },
  };
}

/** Moves happy-dom's window to `url` without loading it: page data is asked of the page's own origin. */
export function setPageUrl(url: string): void {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
}

export interface OpenedPage {
  boot: BootState;
  store: NavStore;
  navigator: Navigator;
  /** What the page reported (a route that failed to load). */
  reports: ErrorReport[];
}

/** The page at `path` as the browser entry starts it: the window on its URL, its boot state, the navigator. */
export async function openPage(origin: string, path: string): Promise<OpenedPage> {
  setPageUrl(origin + path);
  // The document's own history entry, as a page load makes (happy-dom's setURL makes none).
  history.pushState(null, "", origin + path);
  const html = await (await fetch(path)).text();
  const boot = bootState(html) as BootState;
  const store = navStore({ path: boot.page.path, search: boot.page.search, page: livePage(boot.page).view });
  const reports: ErrorReport[] = [];
  const report = (r: ErrorReport) => void reports.push(r);
  const navigator = createNavigate(navigatorOptions(store, boot, tree, report));
  return { boot, store, navigator, reports };
}

/** A layout's or a page's loader data, by route id, as the page shows it. */
export function dataOf<T>(store: NavStore, id: string): T {
  return store.getState().page.data.get(id) as T;
}
