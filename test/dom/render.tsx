// render.tsx (DOM test support): renders framework pieces for the fixture app, in a navigation store of our choosing.
import { act, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { Router } from "wouter";
import { AppContext, appRuntime } from "../../src/runtime/app-context.ts";
import fixtureApp from "../fixtures/app/app.ts";
import { NavigationContext, staticNavigation, useBriskLocation, useBriskSearch, type Navigation } from "../../src/runtime/navigation.ts";
import type { PagePayload } from "../../src/runtime/page-payload.ts";

export function payload(over: Partial<PagePayload> = {}): PagePayload {
  return { v: 2, buildId: "test", path: "/", search: "", route: "/", data: null, deferred: [], assets: { css: [], js: [] }, ...over };
}

export function navigationFor(p: PagePayload, data: unknown = p.data, mode: "production" | "development" | "test" = "production") {
  const calls: Array<[string, unknown]> = [];
  const nav: Navigation = {
    ...staticNavigation({ path: p.path, search: p.search, page: { payload: p, data } }, { mode }, "example.test"),
    navigate: (to, options) => void calls.push([to, options]),
  };
  return { nav, calls };
}

export async function renderWith(nav: Navigation, ui: ReactNode) {
  await act(async () => {
    render(
      <AppContext value={appRuntime(fixtureApp, [])}>
        <NavigationContext value={nav}>
          <Router hook={useBriskLocation} searchHook={useBriskSearch}>
            {ui}
          </Router>
        </NavigationContext>
      </AppContext>,
    );
  });
}
