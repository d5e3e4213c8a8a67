// <Link prefetch> in Chromium on the fixture app: a page's data and code load ahead on intent or on render, the
// click then shows it without another request; a prefetch inside a layout asks only for what the click would.
import { expect, test } from "bun:test";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";
import { openPage } from "../support/opened-page.ts";

const on = chromiumOnFixture();
const open = (path: string) => openPage(on.browser, on.server.origin, path);
const dataResponse = (path: string) => (r: { url(): string }) => r.url().endsWith(`/__data${path}`);

test('"intent": hovering loads the page\'s data; the click shows it without asking again', async () => {
  const { page, watch, data } = await open("/prefetch");
  await Promise.all([page.waitForResponse(dataResponse("/plan/items/4")), page.hover("#intent")]);
  await page.click("#intent");
  await page.locator("#plan-item", { hasText: "Item 4" }).waitFor();
  expect(data.filter((d) => d.startsWith("/__data/plan/items/4"))).toEqual(["/__data/plan/items/4"]);
  expect(watch.documents).toHaveLength(1);
  expect(watch.problems).toEqual([]);
  await page.context().close();
});

test('"render": loaded as the link renders, with no hover; "none": never', async () => {
  const page = await (await on.browser.newContext()).newPage();
  const rendered = page.waitForResponse(dataResponse("/plan/items/5"));
  const data: string[] = [];
  page.on("request", (r) => void (r.url().includes("/__data/") && data.push(new URL(r.url()).pathname)));
  await page.goto(`${on.server.origin}/prefetch`);
  await rendered;
  // Hovered first, so a prefetch of its own would be asked for before the next link's.
  await page.hover("#none");
  await Promise.all([page.waitForResponse(dataResponse("/plan/items/4")), page.hover("#intent")]);
  expect(data).toEqual(["/__data/plan/items/5", "/__data/plan/items/4"]);
  await page.context().close();
});

test("a code-split page's chunk and stylesheet load ahead with its data: the click fetches nothing", async () => {
  const { page, watch } = await open("/prefetch");
  const requested: string[] = [];
  page.on("request", (r) => void requested.push(new URL(r.url()).pathname));
  await Promise.all([page.waitForResponse((r) => r.url().endsWith(".css")), page.hover("#lazy")]);
  await page.waitForLoadState("networkidle");
  const ahead = requested.length;
  expect(requested.some((p) => p.endsWith(".js"))).toBe(true);
  await page.click("#lazy");
  await page.locator(".lazy").waitFor();
  expect(requested.slice(ahead).filter((p) => !p.startsWith("/monitoring"))).toEqual([]);
  expect(watch.problems).toEqual([]);
  await page.context().close();
});

test("inside a layout it asks for the levels the click would load: the layout is kept", async () => {
  const { page, data } = await open("/plan/items/1");
  const loads = await page.textContent("#plan-loads");
  await Promise.all([
    page.waitForResponse(dataResponse("/plan/items/3?_keep=1")),
    page.hover('a[href="/plan/items/3"]'),
  ]);
  await page.click('a[href="/plan/items/3"]');
  await page.locator("#plan-item", { hasText: "Item 3" }).waitFor();
  expect(await page.textContent("#plan-loads")).toBe(loads);
  expect(data).toEqual(["/__data/plan/items/3?_keep=1"]);
  await page.context().close();
});
