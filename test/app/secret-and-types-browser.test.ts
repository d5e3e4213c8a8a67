// The session page's "Reveal the secret" fetcher and /examples/types in Chromium: with JavaScript the secret shows
// in place, or the sign-in (401) page with the URL unchanged; without it the browser posts the form and gets that
// page or the secret; the types page hydrates with the loader's values as they were, on a document and after a
// client navigation.
import { expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { hydrated, watchPage, type PageWatch } from "brisk/test";
import { useChromium } from "./chromium.ts";
import { SESSION_COOKIE, sessionCookieOf } from "./session-cookie.ts";

const chromium = useChromium();
const { open } = chromium;
const TYPES = "0|true|1|11|example.com|true";
const SECRET = /^Only you can read this, (.+): the session cookie is signed, so nobody else can be you\.$/;

/** A browser context, with JavaScript or without, signed in as `name` when given (the cookie from a real sign-in). */
async function visitor({ name, javaScript }: { name?: string; javaScript: boolean }): Promise<BrowserContext> {
  const context = await chromium.browser.newContext({ javaScriptEnabled: javaScript });
  if (name) {
    const { origin } = chromium.served;
    const res = await fetch(`${origin}/examples/session`, {
      method: "POST",
      redirect: "manual",
      headers: { origin, "content-type": "application/x-www-form-urlencoded" },
      body: `name=${encodeURIComponent(name)}`,
    });
    expect(res.status).toBe(303);
    const value = sessionCookieOf(res).slice(`${SESSION_COOKIE}=`.length);
    // A __Host- cookie is Secure, on Path=/: Chromium keeps one for a loopback http origin, a trustworthy one.
    await context.addCookies([
      {
        name: SESSION_COOKIE,
        value,
        domain: new URL(origin).hostname,
        path: "/",
        secure: true,
        httpOnly: true,
        sameSite: "Lax",
      },
    ]);
  }
  return context;
}

/** The session page in `context`, hydrated when JavaScript is on, with its watch. */
async function sessionPage(context: BrowserContext, javaScript: boolean): Promise<{ page: Page; watch: PageWatch }> {
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${chromium.served.origin}/examples/session`);
  if (javaScript) await hydrated(page);
  return { page, watch };
}

const reveal = (page: Page) => page.getByRole("button", { name: "Reveal the secret" }).click();

test("JavaScript on, signed out: the fetcher's 401 shows the sign-in page in place, the URL unchanged, no document load", async () => {
  const context = await visitor({ javaScript: true });
  const { page, watch } = await sessionPage(context, true);
  const answered = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/__data/examples/session" && r.request().method() === "POST",
  );
  await reveal(page);
  expect((await answered).status()).toBe(401);
  await page.getByRole("heading", { name: "401 Sign-in required" }).waitFor();
  expect(await page.locator("#secret").count()).toBe(0);
  expect(await page.getByRole("button", { name: "Reveal the secret" }).count()).toBe(0);
  expect(page.url()).toBe(`${chromium.served.origin}/examples/session`);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/session`]);
  expect(watch.problems).toEqual([]);
  await context.close();
});

test("JavaScript on, signed in: the secret shows in place, for that name; the page stays, no document load", async () => {
  const context = await visitor({ name: "Grace", javaScript: true });
  const { page, watch } = await sessionPage(context, true);
  await page.locator(".signed-in", { hasText: "Grace" }).waitFor();
  await reveal(page);
  await page.locator("#secret").waitFor();
  expect(SECRET.exec((await page.textContent("#secret")) ?? "")?.[1]).toBe("Grace");
  expect(await page.isVisible(".signed-in")).toBe(true);
  expect(page.url()).toBe(`${chromium.served.origin}/examples/session`);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/session`]);
  expect(watch.problems).toEqual([]);
  await context.close();
});

test("JavaScript off, signed out: the browser posts the form and gets the 401 sign-in page", async () => {
  const context = await visitor({ javaScript: false });
  const { page } = await sessionPage(context, false);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && r.request().resourceType() === "document"),
    reveal(page),
  ]);
  expect(answer.status()).toBe(401);
  expect(new URL(answer.url()).pathname).toBe("/examples/session");
  await page.waitForLoadState();
  await page.getByRole("heading", { name: "401 Sign-in required" }).waitFor();
  expect(await page.locator("#secret").count()).toBe(0);
  await context.close();
});

test("JavaScript off, signed in: the browser posts the form and gets the session page with the secret", async () => {
  const context = await visitor({ name: "Linus", javaScript: false });
  const { page } = await sessionPage(context, false);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && r.request().resourceType() === "document"),
    reveal(page),
  ]);
  expect(answer.status()).toBe(200);
  await page.waitForLoadState();
  expect(SECRET.exec((await page.textContent("#secret")) ?? "")?.[1]).toBe("Linus");
  expect(await page.textContent(".signed-in")).toContain("Linus");
  await context.close();
});

test("/examples/types hydrates without a console problem, showing the values the loader returned", async () => {
  const { page, watch } = await open("/examples/types");
  expect(await page.textContent("output#types")).toBe(TYPES);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("/examples/types after a client navigation from the home page: the same values, from page data, one document load", async () => {
  const { page, watch } = await open("/");
  const pageData = page.waitForResponse((r) => new URL(r.url()).pathname === "/__data/examples/types");
  await page.click('a[href="/examples/types"]');
  expect((await pageData).status()).toBe(200);
  await page.waitForURL(`${chromium.served.origin}/examples/types`);
  await page.locator("output#types").waitFor();
  expect(await page.textContent("output#types")).toBe(TYPES);
  expect(watch.documents).toEqual([`${chromium.served.origin}/`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});
