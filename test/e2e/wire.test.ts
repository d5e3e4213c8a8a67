// Data on the wire in Chromium: a page whose loader returns Date, Map, Set, BigInt, URL, undefined, NaN,
// ±Infinity and -0 hydrates without a mismatch, and shows the same values after a client navigation; so does
// one whose data has `__proto__` keys; a streamed value settled before the shell shows as a late one does.
import { describe, expect, test } from "bun:test";
import { hydrated, logFor, watchPage } from "brisk/test";
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

describe("a streamed value settled before the shell rendered, its script ahead of the boot script", () => {
  test("resolved (one as JSON, one in the codec's form): shown as a late one is, with no page error", async () => {
    const page = await on.browser.newPage();
    const watch = watchPage(page);
    await page.goto(`${on.server.origin}/settled`);
    await hydrated(page);
    expect(await page.textContent("#settled")).toBe("ready before the shell|5000");
    // The value is the page's: nothing was lost and shown as an error once the document was parsed.
    await page.waitForLoadState("networkidle");
    expect(await page.textContent("#settled")).toBe("ready before the shell|5000");
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  test("rejected: the page shows the server's digest, the one on the log line, with no page error", async () => {
    const page = await on.browser.newPage();
    const watch = watchPage(page);
    const response = await page.goto(`${on.server.origin}/settled-error`);
    await hydrated(page);
    await page.waitForSelector(".digest code");
    const line = await logFor(
      on.server.logs,
      new Response(null, { headers: { "x-request-id": response!.headers()["x-request-id"]! } }),
    );
    expect(line).toMatchObject({ status: 200, phase: "deferred" });
    expect(line.digest).toMatch(/^[0-9a-z]{10}$/);
    expect(await page.textContent(".digest code")).toBe(line.digest as string);
    expect(await page.textContent("main")).toContain("server-side exception");
    expect(watch.problems.filter((p) => p.startsWith("pageerror"))).toEqual([]);
    await page.close();
  });
});

describe("a __proto__ key in loader data is a key, at the top level, below it and in a streamed value", () => {
  const KEYS = { "/proto": "__proto__,a,later,nested:true", "/proto-rich": "__proto__,a,later,nested,when:true" };
  const LATER = { "/proto": "__proto__,a,nested:true", "/proto-rich": "__proto__,a,nested,when:true" };

  for (const path of ["/proto", "/proto-rich"] as const) {
    test(`${path}: the same on the document and after a client navigation, with no hydration error`, async () => {
      const page = await on.browser.newPage();
      const watch = watchPage(page);
      await page.goto(`${on.server.origin}${path}`);
      await hydrated(page);
      await page.waitForLoadState("networkidle");
      expect(await page.textContent("#proto")).toBe(`${KEYS[path]}|__proto__,b:true`);
      expect(await page.textContent("#proto-later")).toBe(`${LATER[path]}|__proto__,b:true`);
      await page.goto(`${on.server.origin}/`);
      await hydrated(page);
      await page.click(`a[href="${path}"]`);
      await page.waitForSelector("#proto-later");
      expect(await page.textContent("#proto")).toBe(`${KEYS[path]}|__proto__,b:true`);
      expect(await page.textContent("#proto-later")).toBe(`${LATER[path]}|__proto__,b:true`);
      expect(watch.documents).toHaveLength(2);
      expect(watch.problems).toEqual([]);
      await page.close();
    });
  }
});
