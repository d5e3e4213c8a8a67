// DOM clobbering in Chromium: an element whose id is the streamed-value queue's global name (`<a id="__BRISK_Q">`,
// which sanitizers keep) makes `window.__BRISK_Q` that element; the page must still hydrate and show its values.
import { expect, test } from "bun:test";
import { hydrated, watchPage } from "brisk/test";
import type { Page } from "playwright-core";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";

const on = chromiumOnFixture();

/** Opens the page, hydrated, and returns what went wrong on it once the network is quiet. */
async function visit(path: string, check?: (page: Page) => Promise<void>): Promise<string[]> {
  const page = await on.browser.newPage();
  const watch = watchPage(page);
  await page.goto(`${on.server.origin}${path}`);
  await hydrated(page);
  await check?.(page);
  // The queue's global shadows the element's name on window; the element itself is untouched.
  expect(await page.textContent("#__BRISK_Q")).toBe("profile link");
  await page.waitForLoadState("networkidle");
  await page.close();
  return watch.problems;
}

test("beside streamed values, settled before the shell and later, the page hydrates and shows them", async () => {
  const problems = await visit("/clobber", async (page) => {
    await page.waitForSelector("#clobber-values");
    expect(await page.textContent("#clobber-values")).toBe("early|late");
  });
  expect(problems).toEqual([]);
});

test("on a page that streams nothing (the client entry meets the element first), the page hydrates", async () => {
  const problems = await visit("/clobber-static");
  expect(problems).toEqual([]);
});
