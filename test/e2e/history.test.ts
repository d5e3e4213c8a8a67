// History after an action in Chromium on the fixture app: a form post whose action redirects leaves the page in
// a new entry, so Back returns to the form's page as it does without JavaScript; `<Form replace>` keeps the entry.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hydrated } from "brisk/test";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";
import { openPage } from "../support/opened-page.ts";

const on = chromiumOnFixture();

/** From the home page to the sign-in page by its link, then signed in as `name`: the account page shows. */
async function signIn(page: Page, name: string, javaScript: boolean) {
  const follow = page.click('a[href="/session"]');
  await (javaScript ? follow : Promise.all([page.waitForNavigation(), follow]));
  await page.fill('input[name="name"]', name);
  const post = page.click('button[type="submit"]');
  await (javaScript ? post : Promise.all([page.waitForNavigation(), post]));
  await page.locator(".account-name", { hasText: name }).waitFor();
}

describe("Back after signing in (an action that redirects)", () => {
  test.each([
    ["with JavaScript", true],
    ["without JavaScript", false],
  ])("%s: returns to the sign-in page, and once more to the page before it", async (_, javaScript) => {
    const { page, watch } = await openPage(on.browser, on.server.origin, "/", { javaScript });
    await signIn(page, "Ada", javaScript);
    expect(new URL(page.url()).pathname).toBe("/account");
    await page.goBack();
    await page.locator("h1", { hasText: "Session" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/session");
    await page.goBack();
    await page.locator("ul.links").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    if (javaScript) expect(watch.documents).toHaveLength(1);
    await page.context().close();
  });

  test("<Form replace>: the account takes the sign-in page's entry; Back returns to the page before it", async () => {
    const { page } = await openPage(on.browser, on.server.origin, "/");
    await page.goto(`${on.server.origin}/session?replace`);
    await hydrated(page);
    await page.fill('input[name="name"]', "Grace");
    await page.click('button[type="submit"]');
    await page.locator(".account-name", { hasText: "Grace" }).waitFor();
    await page.goBack();
    await page.locator("ul.links").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await page.context().close();
  });
});
