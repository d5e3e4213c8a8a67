// render.tsx (DOM test support): brisk/test's rendering inside an app, on the fixture app, in a navigation
// store of our choosing (pagePayload and testNavigation, from src/server/testing/dom.tsx, make one).
import type { ReactNode } from "react";
import fixtureApp from "../fixtures/app/app.ts";
import { navStore, type NavStore } from "../../src/runtime/browser/nav-store.ts";
import type { Navigation } from "../../src/runtime/navigation.ts";
import { renderWithNavigation } from "../../src/server/testing/dom.tsx";

export async function renderWith(nav: Navigation, ui: ReactNode): Promise<void> {
  await renderWithNavigation(fixtureApp, nav, ui);
}

/** `nav` over the browser's store, which the test commits to as a client navigation does: readers hear of each commit. */
export function committing(nav: Navigation): { navigation: Navigation; store: NavStore } {
  const store = navStore(nav.getState());
  return { navigation: { ...nav, getState: store.getState, subscribe: store.subscribe }, store };
}
