// forms.test.ts: writes in Chromium, with JavaScript on (no document load, errors and values kept in place, a
// pending state) and off (full page loads with the right statuses), on the fixture app's guestbook and sign-in
// (test/fixtures/app/writes.tsx). No console errors, no CSP violations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hydrated, launchBrowser, listenApp, watchPage, type ListeningApp, type PageWatch } from "brisk/test";
import { FIXTURE } from "../support/app.ts";

let server: ListeningApp;
let browser: Browser;
beforeAll(async () => {
  server = await listenApp(FIXTURE);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(
  path: string,
  javaScriptEnabled: boolean,
): Promise<{ page: Page; watch: PageWatch; statuses: number[] }> {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  const watch = watchPage(page);
  const statuses: number[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "document") statuses.push(r.status());
  });
  await page.goto(server.origin + path);
  if (javaScriptEnabled) await hydrated(page);
  return { page, watch, statuses };
}

const unique = (label: string) => `${label} ${Math.random().toString(36).slice(2, 8)}`;

describe("the guestbook with JavaScript on", () => {
  test("signing it makes no document request; the entry shows at once; the pending state is visible meanwhile", async () => {
    const { page, watch } = await open("/guestbook", true);
    const name = unique("Ada");
    // Hold the post on its way, so the pending state can be seen.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/__data/guestbook", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.fill('input[name="name"]', name);
    await page.fill('textarea[name="message"]', "Hello from Chromium");
    const before = watch.documents.length;
    await page.click("button[type=submit]");
    await page.locator("button[type=submit]", { hasText: "Signing…" }).waitFor();
    expect(await page.locator("button[type=submit]").isDisabled()).toBe(true);
    release();
    await page.locator(".entries li", { hasText: name }).waitFor();
    expect(watch.documents.length).toBe(before);
    // A new, empty form; the URL is the list's, with no extra history entry for the post.
    expect(await page.inputValue('input[name="name"]')).toBe("");
    expect(new URL(page.url()).pathname).toBe("/guestbook");
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });

  test("a double click sends one post", async () => {
    const { page, watch } = await open("/guestbook", true);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(r.url());
    });
    const name = unique("Twice");
    await page.fill('input[name="name"]', name);
    await page.fill('textarea[name="message"]', "once");
    await page.dblclick("button[type=submit]");
    await page.locator(".entries li", { hasText: name }).waitFor();
    expect(posts).toHaveLength(1);
    expect(await page.locator(".entries li", { hasText: name }).count()).toBe(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });

  test("an invalid post shows the errors in place and keeps what was typed", async () => {
    const { page, watch } = await open("/guestbook", true);
    const before = watch.documents.length;
    await page.fill('input[name="name"]', "x".repeat(80));
    // Only spaces: past the browser's own `required`, refused by the server's rules.
    await page.fill('textarea[name="message"]', "   ");
    await page.click("button[type=submit]");
    await page.locator("#message-error").waitFor();
    expect(await page.inputValue('input[name="name"]')).toBe("x".repeat(80));
    expect(watch.documents.length).toBe(before);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });

  test("sign in, see the account, sign out: cookies set through page data reach the browser", async () => {
    const { page, watch } = await open("/session", true);
    await page.fill('input[name="name"]', "Grace");
    await page.click("text=Sign in");
    await page.locator(".account-name", { hasText: "Grace" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/account");
    await page.click("text=Sign out");
    await page.locator("input[name=name]").waitFor();
    expect(new URL(page.url()).pathname).toBe("/session");
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });
});

describe("revalidation", () => {
  test("a link to the current page fetches its data again and adds no history entry", async () => {
    const { page, watch } = await open("/guestbook", true);
    const name = unique("Elsewhere");
    // Written another way (the JSON API, as another visitor would): not on the page until it is fetched again.
    const res = await fetch(`${server.origin}/api/guestbook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name, message: "via the API" }),
    });
    expect(res.status).toBe(201);
    expect(await page.locator(".entries li", { hasText: name }).count()).toBe(0);
    const entries = await page.evaluate(() => history.length);
    await page.click("a.refresh");
    await page.locator(".entries li", { hasText: name }).waitFor();
    expect(await page.evaluate(() => history.length)).toBe(entries);
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });
});

describe("with JavaScript off", () => {
  test("signing the guestbook is a post, a 303 and the list with the entry", async () => {
    const { page, statuses } = await open("/guestbook", false);
    const name = unique("NoJS");
    await page.fill('input[name="name"]', name);
    await page.fill('textarea[name="message"]', "without scripts");
    await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
    expect(statuses).toEqual([200, 303, 200]);
    expect(await page.locator(".entries li", { hasText: name }).count()).toBe(1);
    await page.context().close();
  });

  test("an invalid post answers 422 with the errors and the typed values", async () => {
    const { page, statuses } = await open("/guestbook", false);
    await page.fill('input[name="name"]', "Kept name");
    await page.fill('textarea[name="message"]', "   ");
    await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
    expect(statuses).toEqual([200, 422]);
    expect(await page.inputValue('input[name="name"]')).toBe("Kept name");
    expect(await page.locator("#message-error").count()).toBe(1);
    await page.context().close();
  });

  test("sign in sets the session: 303 to the account; without it the account is 401", async () => {
    const { page, statuses } = await open("/account", false);
    expect(statuses).toEqual([401]);
    await page.goto(`${server.origin}/session`);
    await page.fill('input[name="name"]', "Linus");
    await Promise.all([page.waitForNavigation(), page.click("text=Sign in")]);
    expect(statuses).toEqual([401, 200, 303, 200]);
    expect(await page.locator(".account-name").innerText()).toContain("Linus");
    await page.context().close();
  });
});
