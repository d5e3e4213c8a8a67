// dom.tsx (brisk/test): renders a component inside an app, for a test under happy-dom: the app's routes and
// fallbacks, the page's loader data, and a navigation that records where the component sends the visitor.
import type { ReactNode } from "react";
import { Route, Router } from "wouter";
import type { AppDefinition } from "../../runtime/app-definition.ts";
import { AppContext, appRuntime, useAppRuntime } from "../../runtime/app-context.ts";
import type { Mode } from "../../runtime/app-server.ts";
import { LevelContext } from "../../runtime/loader-data.tsx";
import { routeTree } from "../../runtime/route-tree.ts";
import {
  staticNavigation,
  useNavState,
  useBriskLocation,
  useBriskSearch,
  type NavigateOptions,
  type Navigation,
} from "../../runtime/navigation.ts";
import { PAGE_DATA_VERSION, type PagePayload } from "../../runtime/page-payload.ts";
import { pageElement } from "../../runtime/Page.tsx";

/** A page's data as the server sends it, with these fields over an empty page at `/`. */
export function pagePayload(over: Partial<PagePayload> = {}): PagePayload {
  return {
    v: PAGE_DATA_VERSION,
    buildId: "test",
    path: "/",
    search: "",
    route: "/",
    levels: [],
    assets: { css: [], js: [] },
    ...over,
  };
}

/** Each level's data as the payload carries it, by route id. */
function levelData(page: PagePayload): Map<string, unknown> {
  return new Map(page.levels.map(({ id, data }) => [id, data ?? null]));
}

export interface TestNavigation {
  nav: Navigation;
  /** Every navigate() call, in order: where to, and how. */
  calls: Array<[string, NavigateOptions | undefined]>;
}

/** A navigation that stays on `page` and records the navigations asked of it. */
export function testNavigation(
  page: PagePayload,
  data: ReadonlyMap<string, unknown> = levelData(page),
  mode: Mode = "production",
): TestNavigation {
  const calls: TestNavigation["calls"] = [];
  const nav: Navigation = {
    ...staticNavigation(
      { path: page.path, search: page.search, page: { payload: page, data } },
      { mode },
      "example.test",
    ),
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
      <AppContext value={appRuntime({ app, navigation: nav, settlements: [] })}>
        <Router hook={useBriskLocation} searchHook={useBriskSearch}>
          {ui}
        </Router>
      </AppContext>,
    );
  });
  return rendered!;
}

export interface RenderInAppOptions {
  /** The page's URL, pathname and search: its route is the one the app's table matches. "/" unless told. */
  path?: string;
  /** The innermost route's loader data. */
  data?: unknown;
  /** The loader data of the layouts above it, by route id (`useRouteLoaderData`, a layout's `useLoaderData`). */
  routeData?: Record<string, unknown>;
  /** The app; the project's `#app` when omitted. */
  app?: AppDefinition;
  mode?: Mode;
}

export interface RenderedInApp extends Rendered {
  /** Every navigate() call (a <Link> clicked, a redirect followed), in order. */
  navigations: TestNavigation["calls"];
}

/** The page the app's routes give the navigation's path, as the app's <PageContent /> shows it. */
export function Page() {
  return pageElement(useAppRuntime(), useNavState());
}

/**
 * Renders `ui` as if it were a component of the page at `path` of the app (the loader data, the route's
 * params, the search); without `ui`, the page the app's routes give that path (its component, or the
 * not-found fallback). Call `unmount()` after the test.
 */
export async function renderInApp(ui?: ReactNode, options: RenderInAppOptions = {}): Promise<RenderedInApp> {
  // Loaded on the call: finding the project's app is the build's code, which brisk/test does not load with itself.
  const app = options.app ?? (await (await import("./app-module.ts")).loadApp());
  const url = new URL(options.path ?? "/", "http://localhost");
  const match = routeTree(app.routes).match(url.pathname);
  // Loaded on the call, like the app: TypeBox is no part of what importing brisk/test loads.
  const { parseSearch } = await import("../pages/search-schema.ts");
  const route = match?.pattern ?? null;
  const levels = (match?.levels ?? []).map(({ node }, depth, all) => {
    // The parse of the route's search schema, as the server would send it for useRouteSearch.
    const parsed = node.route.search && parseSearch(node.route.search, url.searchParams);
    return {
      id: node.id,
      data: depth === all.length - 1 ? (options.data ?? null) : (options.routeData?.[node.id] ?? null),
      ...(parsed && "query" in parsed ? { query: parsed.query } : {}),
    };
  });
  const page = pagePayload({ path: url.pathname, search: url.search.slice(1), route, levels });
  const { nav, calls } = testNavigation(page, levelData(page), options.mode);
  const level = { depth: levels.length - 1, data: options.data ?? null };
  const inPage = <LevelContext value={level}>{route === null ? ui : <Route path={route}>{ui}</Route>}</LevelContext>;
  return { ...(await renderWithNavigation(app, nav, ui === undefined ? <Page /> : inPage)), navigations: calls };
}
