// A code-split page names, as data, the module its import() loads: the build finds its chunk by that name.
import { expect, test } from "bun:test";
import { dirname, join } from "node:path";
import { isLazyPage } from "../../src/runtime/lazy-page.ts";
import { EXAMPLE_APP_MODULE, FIXTURE_APP_MODULE, loadApp } from "../support/app.ts";

// The app's own table (a check any app passes), and the fixture's, which has one code-split page.
const apps = await Promise.all([EXAMPLE_APP_MODULE, FIXTURE_APP_MODULE].map(async (m) => ({ dir: dirname(m), app: await loadApp(m) })));
const lazyRoutes = apps.flatMap(({ dir, app }) =>
  app.routes.flatMap(({ path, component }) => (isLazyPage(component) ? [[path, component, dir] as const] : [])),
);

test("the fixture's route table has a code-split page", () => {
  expect(lazyRoutes.length).toBeGreaterThan(0);
});

test.each(lazyRoutes)("%s: lazyPage names the module its import() loads", async (_, page, dir) => {
  // One module has one namespace object, however it was imported.
  expect(await page.preload()).toBe(await import(join(dir, page.module)));
});
