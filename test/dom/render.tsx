// render.tsx (DOM test support): brisk/test's rendering inside an app, on the fixture app, in a navigation
// store of our choosing (pagePayload and testNavigation, from src/server/testing/dom.tsx, make one).
import type { ReactNode } from "react";
import fixtureApp from "../fixtures/app/app.ts";
import type { Navigation } from "../../src/runtime/navigation.ts";
import { renderWithNavigation } from "../../src/server/testing/dom.tsx";

export async function renderWith(nav: Navigation, ui: ReactNode): Promise<void> {
  await renderWithNavigation(fixtureApp, nav, ui);
}
