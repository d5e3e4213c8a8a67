// /examples/popular in Chromium, kept by the server before the visitor signs the guestbook: without JavaScript the
// form's post and a document load of the page, with it the form in place and a client navigation (page data, kept
// too) show the new count.
import { expect, test } from "bun:test";
import type { Page, Response } from "playwright-core";
import { useChromium } from "./chromium.ts";
import { keptAfter, type Ask } from "./render-cache.ts";

const chromium = useChromium();
const ask: Ask = (path, init) => chromium.served.request(path, init);
const count = async (page: Page) => Number(await page.textContent("#entry-count"));

/** Signs the guestbook through its form on the page open there; resolves once the entry is listed. */
async function sign(page: Page): Promise<void> {
  const message = `for the popular page ${crypto.randomUUID()}`;
  await page.fill('input[name="name"]', "Browser");
  await page.fill('textarea[name="message"]', message);
  await page.click('button[type="submit"]');
  await page.locator("ol.entries li").first().filter({ hasText: message }).waitFor();
}

test("without JavaScript: a document load after signing the guestbook shows the new count", async () => {
  const context = await chromium.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const url = `${chromium.served.origin}/examples/popular`;
  await keptAfter(ask, () => page.goto(url));
  const hit = await page.goto(url);
  expect(hit?.headers()["x-cache"]).toBe("hit");
  const before = { count: await count(page), renderedAt: await page.textContent("#rendered-at") };
  await Promise.all([
    page.waitForURL(`${chromium.served.origin}/examples/guestbook`),
    page.click("text=the guestbook"),
  ]);
  await sign(page);
  const after = await page.goto(url);
  expect(after?.headers()["x-cache"]).toBe("miss");
  expect(await count(page)).toBe(before.count + 1);
  expect(await page.textContent("#rendered-at")).not.toBe(before.renderedAt);
  await context.close();
});

test("with JavaScript: signing in place, then a client navigation shows the new count", async () => {
  const { page, watch } = await chromium.open("/");
  const popular = page.locator('ul.examples a[href="/examples/popular"]');
  const pageData = (r: Response) => new URL(r.url()).pathname === "/__data/examples/popular";
  // The page data a client navigation asks for, kept by the server before the write.
  await keptAfter(ask, () => Promise.all([page.waitForResponse(pageData), popular.click()]));
  await page.locator("h1", { hasText: "Popular" }).waitFor();
  const before = await count(page);
  await page.click("text=the guestbook");
  await sign(page);
  await page.click("text=← All examples");
  const [data] = await Promise.all([page.waitForResponse(pageData), popular.click()]);
  expect(data.headers()["x-cache"]).toBe("miss");
  await page.locator("h1", { hasText: "Popular" }).waitFor();
  expect(await count(page)).toBe(before + 1);
  expect(watch.documents).toEqual([`${chromium.served.origin}/`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});
