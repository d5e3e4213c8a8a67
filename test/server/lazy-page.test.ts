// A code-split page names, as data, the module its import() loads: the build finds its chunk by that name.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { routes } from "../../src/app/routes.tsx";
import { isLazyPage } from "../../src/brisk/runtime/lazy-page.ts";

const APP_DIR = join(import.meta.dir, "../../src/app");
const lazyRoutes = routes.flatMap(({ path, component }) => (isLazyPage(component) ? [[path, component] as const] : []));

test("the route table has a code-split page", () => {
  expect(lazyRoutes.length).toBeGreaterThan(0);
});

test.each(lazyRoutes)("%s: lazyPage names the module its import() loads", async (_, page) => {
  // One module has one namespace object, however it was imported.
  expect(await page.preload()).toBe(await import(join(APP_DIR, page.module)));
});
