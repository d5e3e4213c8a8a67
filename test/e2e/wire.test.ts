// Data on the wire in Chromium: a page whose loader returns Date, Map, Set, BigInt, URL, undefined, NaN,
// ±Infinity and -0 hydrates without a mismatch, and shows the same values after a client navigation.
import { expect, test } from "bun:test";
import { hydrated, watchPage } from "../support/browser.ts";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";

const on = chromiumOnFixture();

const EXPECTED = "0|true|1|11|example.com|true|true|true|Infinity|-Infinity|true|15";

test("the document hydrates from the values as the loader returned them, the streamed one too", async () => {
  const page = await on.browser.newPage();
  const watch = watchPage(page);
  await page.goto(`${on.server.origin}/types`);
  await hydrated(page);
  await page.waitForSelector("#later");
  expect(await page.textContent("#types")).toBe(EXPECTED);
  expect(await page.textContent("#later")).toBe("1000|true");
  await page.waitForLoadState("networkidle");
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("a client navigation gets them intact through page data", async () => {
  const page = await on.browser.newPage();
  const watch = watchPage(page);
  await page.goto(`${on.server.origin}/`);
  await hydrated(page);
  await page.click('a[href="/types"]');
  await page.waitForSelector("#later");
  expect(await page.textContent("#types")).toBe(EXPECTED);
  expect(await page.textContent("#later")).toBe("1000|true");
  expect(watch.documents).toHaveLength(1);
  expect(watch.problems).toEqual([]);
  await page.close();
});
