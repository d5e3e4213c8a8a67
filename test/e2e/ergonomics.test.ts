// In Chromium, on the fixture app: a fetcher's form that starts empty after a saved comment and keeps a refused
// one; useUrl() through hydration, navigations and hash changes; <Await errorElement> sections that fail on
// their own while the page stays usable, with JavaScript on and off.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";
import { openPage } from "../support/opened-page.ts";

const on = chromiumOnFixture();

const open = (path: string, javaScript = true) => openPage(on.browser, on.server.origin, path, { javaScript });

const textOf = (page: Page, selector: string) => page.textContent(selector);

describe("a fetcher's form", () => {
  test("a saved comment empties it, with no key to remount it; a refused one (422) keeps the text beside the error", async () => {
    const { page, watch } = await open("/comments");
    const box = page.getByRole("textbox", { name: "Comment" });
    const tooLong = "a comment far too long for the fixture's forty characters";
    await box.fill(tooLong);
    await page.getByRole("button", { name: "Comment" }).click();
    await page.getByRole("alert").waitFor();
    await page.waitForFunction(() => document.querySelector("#comment-state")?.textContent === "idle");
    expect(await box.inputValue()).toBe(tooLong);
    await box.fill("Seen on Firefox too");
    await page.getByRole("button", { name: "Comment" }).click();
    await page.locator("#comments li", { hasText: "Seen on Firefox too" }).waitFor();
    expect(await box.inputValue()).toBe("");
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });
});

describe("useUrl", () => {
  test("the hash comes after hydration, without a mismatch; it follows a navigation, a link to a #section, Back and a hash set by hand", async () => {
    const { page, watch } = await open("/comments?x=1#top");
    const shows = (url: string) => page.waitForFunction((u) => document.querySelector("#url")?.textContent === u, url);
    await shows("/comments|?x=1|#top");
    await page.click("text=Page 2");
    await shows("/comments|?page=2|#latest");
    // The page showing, another #section: no page data, the hash alone moves.
    await page.click("text=To the form");
    await shows("/comments|?page=2|#form");
    await page.goBack();
    await shows("/comments|?page=2|#latest");
    await page.evaluate(() => void (location.hash = "#by-hand"));
    await shows("/comments|?page=2|#by-hand");
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });
});

describe("<Await errorElement>", () => {
  const digestIn = async (page: Page, id: string) => /([0-9a-z]{10})$/.exec((await textOf(page, `#${id}`)) ?? "")?.[1];

  test("each failed section shows its digest, the rest of the page renders and stays interactive: no error page", async () => {
    const { page, watch } = await open("/sections");
    await page.locator("#late-failed").waitFor();
    expect(await digestIn(page, "early-failed")).toMatch(/^[0-9a-z]{10}$/);
    expect(await digestIn(page, "late-failed")).toMatch(/^[0-9a-z]{10}$/);
    expect(await textOf(page, "#fine")).toBe("the fine section");
    await page.click("#clicks");
    expect(await textOf(page, "#clicks")).toBe("Clicked 1");
    expect(await page.getByText("exception has occurred").count()).toBe(0);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });

  test("without JavaScript, the document shows the section that failed before its shell went out", async () => {
    const { page } = await open("/sections", false);
    expect(await page.isVisible("#early-failed")).toBe(true);
    expect(await digestIn(page, "early-failed")).toMatch(/^[0-9a-z]{10}$/);
    // One that failed later is in the document too, for React's inline script to move into place.
    expect(await page.isVisible("#late-waiting")).toBe(true);
    await page.context().close();
  });

  test("a streamed notFound() still shows the not-found page, as without <Await>", async () => {
    const { page } = await open("/section-not-found");
    await page.getByRole("heading", { name: "404 Page not found" }).waitFor();
    expect(await page.locator("#missing-failed").count()).toBe(0);
    await page.context().close();
  });
});
