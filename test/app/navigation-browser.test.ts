// The examples' client navigation in Chromium: /examples/search's GET form loads results on the client (a
// document GET without JavaScript), and the home page's example links load their page ahead on hover.
import { expect, test } from "bun:test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();
const { open } = chromium;

test("/examples/search with JavaScript: submitting navigates on the client, no document load", async () => {
  const { page, watch } = await open("/examples/search?q=brisk");
  await page.fill("#search-q", "lamps & chairs");
  await page.click('button[type="submit"]');
  await page.locator("#query", { hasText: "lamps & chairs" }).waitFor();
  expect(page.url()).toBe(`${chromium.served.origin}/examples/search?q=lamps+%26+chairs`);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/search?q=brisk`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("/examples/search without JavaScript: the browser's own GET of the same URL", async () => {
  const context = await chromium.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${chromium.served.origin}/examples/search?q=brisk`);
  await page.fill("#search-q", "lamps & chairs");
  await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
  expect(page.url()).toBe(`${chromium.served.origin}/examples/search?q=lamps+%26+chairs`);
  expect(await page.textContent("#query")).toBe("lamps & chairs");
  await context.close();
});

test("the home page's example links load their page ahead on hover: the click asks nothing more", async () => {
  const { page, watch } = await open("/");
  const data: string[] = [];
  page.on(
    "request",
    (r) => void (r.url().includes("/__data/") && data.push(new URL(r.url()).pathname + new URL(r.url()).search)),
  );
  const link = page.locator('ul.examples a[href="/examples/types"]');
  await Promise.all([page.waitForResponse((r) => r.url().endsWith("/__data/examples/types")), link.hover()]);
  await link.click();
  await page.locator("h1", { hasText: "Data on the wire" }).waitFor();
  expect(data).toEqual(["/__data/examples/types"]);
  expect(watch.documents).toEqual([`${chromium.served.origin}/`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});
