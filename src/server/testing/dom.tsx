// dom.tsx (brisk/test): renders a component inside an app, for a test under happy-dom: the app's routes and
// fallbacks, the page's loader data, and a navigation that records where the component sends the visitor.
import type { ReactNode } from "react";
import { Route, Router } from "wouter";
import type { AppDefinition } from "../../runtime/app-definition.ts";
import { AppContext, appRuntime } from "../../runtime/app-context.ts";
import type { Mode } from "../../runtime/app-server.ts";
import { LoaderDataContext } from "../../runtime/loader-data.tsx";
import { createMatcher } from "../../runtime/match.ts";
import { NavigationContext, staticNavigation, useBriskLocation, useBriskSearch, type NavigateOptions, type Navigation } from "../../runtime/navigation.ts";
import { PAGE_DATA_VERSION, type PagePayload } from "../../runtime/page-payload.ts";
import { Page } from "../../runtime/Page.tsx";
import { loadApp } from "./app-module.ts";

/** A page's data as the server sends it, with these fields over an empty page at `/`. */
export function pagePayload(over: Partial<PagePayload> = {}): PagePayload {
  return { v: PAGE_DATA_VERSION, buildId: "test", path: "/", search: "", route: "/", data: null, deferred: [], assets: { css: [], js: [] }, ...over };
}

export interface TestNavigation {
  nav: Navigation;
  /** Every navigate() call, in order: where to, and how. */
  calls: Array<[string, NavigateOptions | undefined]>;
}

/** A navigation that stays on `page` and records the navigations asked of it. */
export function testNavigation(page: PagePayload, data: unknown = page.data, mode: Mode = "production"): TestNavigation {
  const calls: TestNavigation["calls"] = [];
  const nav: Navigation = {
    ...staticNavigation({ path: page.path, search: page.search, page: { payload: page, data } }, { mode }, "example.test"),
    navigate: (to, options) => void calls.push([to, options]),
  };
  return { nav, calls };
}

export interface Rendered {
  /** The element the component was rendered into. */
  container: HTMLElement;
  unmount(): void;
}

/** Renders `ui` in the app's context and this navigation, as the page boundary renders a page. */
export async function renderWithNavigation(app: AppDefinition, nav: Navigation, ui: ReactNode): Promise<Rendered> {
  // The pure entry: it registers no hooks of its own in the test file that loads it first.
  const { act, render } = await import("@testing-library/react/pure");
  let rendered: Rendered | undefined;
  await act(async () => {
    rendered = render(
      <AppContext value={appRuntime(app, [])}>
        <NavigationContext value={nav}>
          <Router hook={useBriskLocation} searchHook={useBriskSearch}>
            {ui}
          </Router>
        </NavigationContext>
      </AppContext>,
    );
  });
  return rendered!;
}

export interface RenderInAppOptions {
  /** The page's URL, pathname and search: its route is the one the app's table matches. "/" unless told. */
  path?: string;
  /** The route's loader data. */
  data?: unknown;
  /** The app; the project's `#app` when omitted. */
  app?: AppDefinition;
  mode?: Mode;
}

export interface RenderedInApp extends Rendered {
  /** Every navigate() call (a <Link> clicked, a redirect followed), in order. */
  navigations: TestNavigation["calls"];
}

/**
 * Renders `ui` as if it were a component of the page at `path` of the app (the loader data, the route's
 * params, the search); without `ui`, the page the app's routes give that path (its component, or the
 * not-found fallback). Call `unmount()` after the test.
 */
export async function renderInApp(ui?: ReactNode, options: RenderInAppOptions = {}): Promise<RenderedInApp> {
  const app = options.app ?? (await loadApp());
  const url = new URL(options.path ?? "/", "http://localhost");
  const route = createMatcher(app.routes)(url.pathname)?.route.path ?? null;
  const page = pagePayload({ path: url.pathname, search: url.search.slice(1), route, data: options.data ?? null });
  const { nav, calls } = testNavigation(page, page.data, options.mode);
  const inPage = <LoaderDataContext value={page.data}>{route === null ? ui : <Route path={route}>{ui}</Route>}</LoaderDataContext>;
  return { ...(await renderWithNavigation(app, nav, ui === undefined ? <Page /> : inPage)), navigations: calls };
}
