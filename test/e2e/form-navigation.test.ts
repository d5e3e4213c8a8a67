// Forms that navigate, in Chromium on the fixture app: `<Form method="get">` loads its URL on the client with
// the fields as the search (a document GET without JavaScript), useSearchParams sets the search, and a pending
// `<Form>`'s fields can be shown before the server answers.
import { describe, expect, test } from "bun:test";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";
import { hold, openPage } from "../support/opened-page.ts";

const on = chromiumOnFixture();
const open = (path: string, javaScript = true) => openPage(on.browser, on.server.origin, path, { javaScript });

describe('<Form method="get">', () => {
  test("with JavaScript: a client navigation to the form's URL with its fields as the search, the query shown while it loads", async () => {
    const { page, watch, data } = await open("/search?q=brisk");
    const release = await hold(page, "**/__data/search?q=lamps", "GET");
    await page.fill('input[name="q"]', "lamps");
    await page.click('button[type="submit"]');
    await page.locator("#pending-q", { hasText: "lamps" }).waitFor();
    release();
    await page.locator("#q", { hasText: "lamps" }).waitFor();
    expect(page.url()).toBe(`${on.server.origin}/search?q=lamps`);
    expect(await page.locator("#pending-q").count()).toBe(0);
    expect(data).toEqual(["/__data/search?q=lamps"]);
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });

  test("without JavaScript: the browser's own GET of the same URL", async () => {
    const { page, watch } = await open("/search?q=brisk", false);
    await page.fill('input[name="q"]', "lamps");
    await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    expect(page.url()).toBe(`${on.server.origin}/search?q=lamps`);
    expect(await page.textContent("#q")).toBe("lamps");
    expect(watch.documents).toEqual([`${on.server.origin}/search?q=brisk`, `${on.server.origin}/search?q=lamps`]);
    await page.context().close();
  });
});

test("useSearchParams: setting the search navigates on the client, in a new history entry", async () => {
  const { page, watch, data } = await open("/search?q=brisk");
  await page.click("#next-page");
  await page.locator("#page", { hasText: "2" }).waitFor();
  expect(page.url()).toBe(`${on.server.origin}/search?q=brisk&page=2`);
  await page.goBack();
  await page.locator("#page", { hasText: "1" }).waitFor();
  expect(data).toEqual(["/__data/search?q=brisk&page=2", "/__data/search?q=brisk"]);
  expect(watch.documents).toHaveLength(1);
  await page.context().close();
});

test("a pending <Form>'s fields: the entry being signed shows before the server answers", async () => {
  const { page, watch } = await open("/guestbook");
  const release = await hold(page, "**/__data/guestbook");
  const name = `Pending ${Math.random().toString(36).slice(2, 8)}`;
  await page.fill('input[name="name"]', name);
  await page.fill('textarea[name="message"]', "on its way");
  await page.click("button[type=submit]");
  await page.locator("#pending-entry", { hasText: `${name} (sending)` }).waitFor();
  release();
  await page.locator(".entries li", { hasText: name }).waitFor();
  expect(await page.locator("#pending-entry").count()).toBe(0);
  expect(watch.problems).toEqual([]);
  await page.context().close();
});
