// What stands before the first paint in Chromium, on the production build: a compressed document, the app's
// stylesheet inline (no request for it, no CSP violation), route stylesheets still loaded as links, and none of the
// page's modules (fetched and run once it has painted). On the fixture app (test/fixtures/app).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hydrated, launchBrowser, listenApp, watchPage, type ListeningApp } from "brisk/test";
import { FIXTURE } from "../support/app.ts";

let server: ListeningApp;
let browser: Browser;

beforeAll(async () => {
  server = await listenApp(FIXTURE);
  await server.prerendered();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("the prerendered page: compressed, its stylesheet inline and kept through hydration and navigation, no CSP violation", async () => {
  const page = await browser.newPage();
  const watch = watchPage(page);
  const stylesheets: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "stylesheet") stylesheets.push(new URL(r.url()).pathname);
  });
  const response = await page.goto(`${server.origin}/prerendered`);
  // Joined per response from pieces gzipped once: what Chromium decodes is the page, nonce and all.
  expect(response!.headers()["content-encoding"]).toBe("gzip");
  expect(response!.headers().etag).toBeTruthy();
  await hydrated(page);
  const inline = () =>
    page.evaluate(() => {
      const style = document.querySelector<HTMLStyleElement>('style[data-precedence="brisk-inline"]');
      return { href: style?.dataset.href, rules: style?.sheet?.cssRules.length ?? 0 };
    });
  const before = await inline();
  expect(before.href).toMatch(/^\/assets\/styles-/);
  expect(before.rules).toBeGreaterThan(0);
  // The app's rules apply: the page's font is the stylesheet's, not the browser's serif default.
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("system-ui");
  await page.click('a[href="/lazy"]');
  await page.waitForSelector(".lazy");
  expect(await inline()).toEqual(before);
  expect(stylesheets).toHaveLength(1);
  expect(stylesheets[0]).toMatch(/^\/assets\/lazy-/);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("the prerendered not-found page: 404, gzip, the path it was asked for, hydrated with no CSP violation", async () => {
  const page = await browser.newPage();
  const watch = watchPage(page);
  const response = await page.goto(`${server.origin}/no/such/a&b`);
  expect(response!.status()).toBe(404);
  expect(response!.headers()["content-encoding"]).toBe("gzip");
  await hydrated(page);
  expect(
    await page.evaluate(() => (window as unknown as { __BRISK__: { page: { path: string } } }).__BRISK__.page.path),
  ).toBe("/no/such/a&b");
  expect(watch.problems).toEqual([]);
  await page.close();
});

/**
 * `path` loaded in a new page (after `before`, on the page, if given) and hydrated: when each of its scripts was
 * requested, the entry's among them, and when it painted (undefined: it did not).
 */
async function loadTimed(path: string, before?: (page: Page) => Promise<unknown>) {
  const page = await browser.newPage();
  const watch = watchPage(page);
  await before?.(page);
  await page.goto(`${server.origin}${path}`);
  await hydrated(page);
  const timings = await page.evaluate(() => ({
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
    load: performance.getEntriesByType("navigation")[0]!.toJSON().loadEventEnd as number,
    scripts: performance
      .getEntriesByType("resource")
      .filter((e) => new URL(e.name).pathname.endsWith(".js"))
      .map((e) => ({ path: new URL(e.name).pathname, start: e.startTime })),
  }));
  const entry = timings.scripts.find((s) => s.path.startsWith("/assets/entry-client-"));
  return { page, watch, entry, ...timings };
}

test("a page rendered per request asks for its modules only once its first contentful paint is on screen, then hydrates", async () => {
  // /types carries data only the codec revives: its chunk comes beside the entry.
  const { page, watch, fcp, scripts, entry } = await loadTimed("/types");
  expect(fcp).toBeGreaterThan(0);
  expect(entry).toBeDefined();
  expect(scripts.length).toBeGreaterThan(1);
  for (const script of scripts)
    expect({ ...script, afterPaint: script.start >= fcp! }).toEqual({ ...script, afterPaint: true });
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("in a tab hidden as it loads (where nothing paints), the modules are asked for at once, not after a paint: the page hydrates", async () => {
  // Headless Chromium shows every tab: the page is told it is hidden, as a background tab is.
  const hidden = (page: Page) =>
    page.addInitScript(() => Object.defineProperty(document, "visibilityState", { get: () => "hidden" }));
  const { page, watch, fcp, entry } = await loadTimed("/types", hidden);
  // Before any paint: a hidden tab's entry does not wait for one.
  expect(entry!.start).toBeLessThan(fcp ?? Infinity);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("a page with nothing contentful to paint still asks for its modules once it has loaded, and hydrates", async () => {
  const { page, watch, fcp, load, entry } = await loadTimed("/blank");
  expect(fcp).toBeUndefined();
  expect(entry!.start).toBeGreaterThanOrEqual(load);
  expect(await page.isVisible("#blank")).toBe(false);
  expect(await page.locator("#blank").count()).toBe(1);
  expect(watch.problems).toEqual([]);
  await page.close();
});
