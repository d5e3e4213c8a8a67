// /examples/shell in Chromium: with JavaScript the page hydrates from this request's page data (the greeting the
// server resumed into the shell is the one React hydrates: no hydration mismatch, no console error, no CSP
// violation) and stays live; without it the visitor still reads their own name.
import { beforeAll, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { hydrated, watchPage } from "brisk/test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();
beforeAll(() => chromium.served.prerendered());

/** A browser context with JavaScript or without, signed in as `name` when given, through the sign-in form. */
async function visitor(javaScript: boolean, name?: string): Promise<BrowserContext> {
  const context = await chromium.browser.newContext({ javaScriptEnabled: javaScript });
  if (!name) return context;
  const { origin } = chromium.served;
  const page = await context.newPage();
  await page.goto(`${origin}/examples/session`);
  if (javaScript) await hydrated(page);
  await page.getByLabel("Your name").fill(name);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${origin}/examples/account`);
  await page.close();
  return context;
}

const greeting = (page: Page) => page.locator("#hello");

test("JavaScript on: each visitor's page hydrates with their own greeting, without a mismatch or an error", async () => {
  for (const name of ["Ada", undefined]) {
    const context = await visitor(true, name);
    const page = await context.newPage();
    const watch = watchPage(page);
    await page.goto(`${chromium.served.origin}/examples/shell`);
    await hydrated(page);
    await expect(greeting(page).textContent()).resolves.toBe(name ?? "nobody");
    expect(await greeting(page).isVisible()).toBe(true);
    // Hydrated from this request's page, and React took over the hole in place: it is inside the page's <main>.
    expect(await page.evaluate(() => (window as any).__BRISK__.page.levels[0].data.name)).toBe(name ?? null);
    expect(await page.locator("main #hello").count()).toBe(1);
    // Live: a client navigation from the page works, without a document load.
    await page.getByRole("link", { name: "← All examples" }).click();
    await page.waitForURL(`${chromium.served.origin}/`);
    expect(watch.documents).toEqual([`${chromium.served.origin}/examples/shell`]);
    expect(watch.problems).toEqual([]);
    await context.close();
  }
});

test("JavaScript off: the visitor still reads their own name", async () => {
  const context = await visitor(false, "Grace");
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${chromium.served.origin}/examples/shell`);
  await expect(greeting(page).textContent()).resolves.toBe("Grace");
  expect(await greeting(page).isVisible()).toBe(true);
  expect(await page.getByRole("heading", { name: "Partial prerendering" }).isVisible()).toBe(true);
  expect(watch.problems).toEqual([]);
  await context.close();
});
