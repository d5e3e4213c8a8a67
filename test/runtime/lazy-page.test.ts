// A code-split page names, as data, the module its import() loads: the build finds its chunk by that name.
import { expect, test } from "bun:test";
import { dirname, join } from "node:path";
import { isLazyPage } from "../../src/runtime/lazy-page.ts";
import { FIXTURE_APP_MODULE, loadApp } from "../support/app.ts";

// The fixture's table, which has a code-split page.
const dir = dirname(FIXTURE_APP_MODULE);
const lazyRoutes = (await loadApp()).routes.flatMap(({ path, component }) =>
  isLazyPage(component) ? [[path, component] as const] : [],
);

test("the fixture's route table has a code-split page", () => {
  expect(lazyRoutes.length).toBeGreaterThan(0);
});

test.each(lazyRoutes)("%s: lazyPage names the module its import() loads", async (_, page) => {
  // One module has one namespace object, however it was imported.
  expect(await page.preload()).toBe(await import(join(dir, page.module)));
});
