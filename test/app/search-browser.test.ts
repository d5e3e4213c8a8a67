// The search example in Chromium: with JavaScript its pager moves on the client (page data, no document load,
// a history entry), and without it the same links and the GET form are plain links and a plain form.
import { expect, test } from "bun:test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();
const { open } = chromium;

test("with JavaScript: the next link shows page 2 on the client, and back shows page 1 again", async () => {
  const { page, watch } = await open("/examples/search?q=a");
  await page.click('#pager a[rel="next"]');
  await page.locator("#page", { hasText: "2" }).waitFor();
  expect(page.url()).toBe(`${chromium.served.origin}/examples/search?q=a&page=2`);
  expect(await page.locator("#pager a[rel=prev]").getAttribute("href")).toBe("/examples/search?q=a&page=1");
  await page.goBack();
  await page.locator("#page", { hasText: "1" }).waitFor();
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/search?q=a`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("with JavaScript: back to a URL with an unknown sort shows the bad request in place, naming sort", async () => {
  const { page, watch } = await open("/examples/search");
  // Entries this page never loaded: going back to one is a client navigation to its URL (popstate).
  await page.evaluate(() => {
    history.pushState(null, "", "/examples/search?sort=bogus");
    history.pushState(null, "", "/examples/search?q=x");
    history.back();
  });
  await page.getByText('sort: expected "new" or "old"').waitFor();
  expect(await page.locator("h1").textContent()).toBe("Bad request");
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/search`]);
  await page.close();
});

test("without JavaScript: the pager and sort links are plain links, and the form a plain GET", async () => {
  const context = await chromium.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${chromium.served.origin}/examples/search?q=a`);
  await Promise.all([page.waitForNavigation(), page.click('#pager a[rel="next"]')]);
  expect(page.url()).toBe(`${chromium.served.origin}/examples/search?q=a&page=2`);
  expect(await page.textContent("#page")).toBe("2");
  await Promise.all([page.waitForNavigation(), page.click("text=newest first")]);
  expect(page.url()).toBe(`${chromium.served.origin}/examples/search?q=a&sort=new`);
  expect(await page.textContent("#page")).toBe("1");
  await page.fill("#search-q", "lamp");
  await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
  expect(page.url()).toBe(`${chromium.served.origin}/examples/search?q=lamp`);
  expect(await page.textContent("#query")).toBe("lamp");
  await context.close();
});
