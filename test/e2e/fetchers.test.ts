// Fetchers in Chromium, against the fixture app's /fetchers page: posts that do not move the page, the
// result shown before the server confirms it, and every outcome shown, with JavaScript on and off.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hydrated } from "brisk/test";
import { chromiumOnFixture } from "../support/chromium-on-fixture.ts";
import { openPage } from "../support/opened-page.ts";

const on = chromiumOnFixture();

const open = (path = "/fetchers") => openPage(on.browser, on.server.origin, path);

const number = async (page: Page, selector: string) => Number(await page.textContent(selector));

describe("with JavaScript", () => {
  test("a like counts up at once, stays counted after the server answers, and the page's loader runs again, once", async () => {
    const { page, watch, data } = await open();
    const [likes, loads] = [await number(page, "#likes"), await number(page, "#fetchers-loads")];
    // Hold the answer back, to see what the page shows while the post is on its way.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/__data/fetchers", async (route) => (await held, route.continue()));
    // Every count the page shows, however briefly: the answer must not show it twice or take it back.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      const likes = document.querySelector("#likes")!;
      new MutationObserver(() => seen.push(likes.textContent ?? "")).observe(likes, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await page.click("text=Like");
    await page.waitForFunction((n) => Number(document.querySelector("#likes")?.textContent) === n + 1, likes);
    release();
    await page.waitForFunction((n) => Number(document.querySelector("#fetchers-loads")?.textContent) > n, loads);
    // The post's answer holds the page's data, loaded after the action: nothing asks for it again.
    expect(await number(page, "#fetchers-loads")).toBe(loads + 1);
    expect(data).toEqual(["POST /__data/fetchers"]);
    expect(await number(page, "#likes")).toBe(likes + 1);
    expect(new Set(await page.evaluate(() => (window as unknown as { seen: string[] }).seen))).toEqual(
      new Set([String(likes + 1)]),
    );
    expect(page.url()).toBe(`${on.server.origin}/fetchers`);
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });

  test("data a fetcher loaded is loaded again after another fetcher's action: it shows what the action changed", async () => {
    const { page, watch } = await open();
    await page.click("#load-count");
    await page.waitForFunction(() => document.querySelector("#loaded-count")?.textContent?.startsWith("count "));
    const before = Number((await page.textContent("#loaded-count"))!.slice("count ".length));
    const loads = await number(page, "#fetchers-loads");
    await page.click("#likes + button");
    await page.waitForFunction(
      (n) => document.querySelector("#loaded-count")?.textContent === `count ${n + 1}`,
      before,
    );
    // The page's own loader ran again too, and nothing loaded twice into the page.
    expect(await number(page, "#fetchers-loads")).toBeGreaterThan(loads);
    expect(await number(page, "#likes")).toBe(before + 1);
    expect(watch.documents).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.context().close();
  });

  test("several at once, each with its own state: a load completes while a like is still on its way", async () => {
    const { page } = await open();
    const likes = await number(page, "#likes");
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/__data/fetchers", async (route) => (await held, route.continue()));
    await page.click("text=Like");
    await page.click("#load-item");
    await page.waitForFunction(() => document.querySelector("#loaded")?.textContent === "item 9");
    expect(await number(page, "#likes")).toBe(likes + 1);
    expect(await page.textContent("#secret-state")).toBe("idle");
    release();
    await page.context().close();
  });

  test("signed out, the secret's 401 shows the sign-in page, the URL unchanged", async () => {
    const { page, watch } = await open();
    await page.click("text=Reveal the secret");
    await page.waitForSelector("text=Sign-in required");
    expect(page.url()).toBe(`${on.server.origin}/fetchers`);
    expect(watch.documents).toHaveLength(1);
    await page.context().close();
  });

  test("signed in, the secret shows in place", async () => {
    const context = await on.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${on.server.origin}/session`);
    await hydrated(page);
    await page.fill('input[name="name"]', "ada");
    await Promise.all([page.waitForURL(/\/account$/), page.click('button[type="submit"]')]);
    await page.goto(`${on.server.origin}/fetchers`);
    await hydrated(page);
    await page.click("text=Reveal the secret");
    await page.waitForSelector("#secret");
    expect(await page.textContent("#secret")).toBe("the secret");
    await context.close();
  });

  test("not found shows the not-found page", async () => {
    const { page } = await open();
    await page.click("text=Missing");
    await page.waitForSelector("text=Page not found");
    await page.context().close();
  });

  test("an error shows the error page with the server's digest", async () => {
    const { page } = await open();
    await page.click("text=Boom");
    await page.waitForSelector("main.global-error");
    expect(await page.textContent("main.global-error")).toMatch(/server-side exception.*Digest: [0-9a-z]{10}/s);
    await page.context().close();
  });

  test("a redirect navigates", async () => {
    const { page, watch } = await open();
    await Promise.all([page.waitForURL(`${on.server.origin}/shop`), page.click("text=Move")]);
    await page.waitForSelector("#shop-index");
    expect(watch.documents).toHaveLength(1);
    await page.context().close();
  });

  test("a load brings another route's data without moving the page", async () => {
    const { page } = await open();
    await page.click("#load-item");
    await page.waitForFunction(() => document.querySelector("#loaded")?.textContent === "item 9");
    expect(page.url()).toBe(`${on.server.origin}/fetchers`);
    await page.context().close();
  });
});

describe("without JavaScript the same forms post as documents and meet the same pages", () => {
  async function noScript(path = "/fetchers") {
    const context = await on.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(on.server.origin + path);
    return { page, context };
  }

  test("the secret's 401: the sign-in page, status 401", async () => {
    const { page, context } = await noScript();
    const [response] = await Promise.all([page.waitForNavigation(), page.click("text=Reveal the secret")]);
    expect(response?.status()).toBe(401);
    expect(await page.content()).toContain("Sign-in required");
    await context.close();
  });

  test("a like: the page again, with the count up", async () => {
    const { page, context } = await noScript();
    const likes = await number(page, "#likes");
    const [response] = await Promise.all([page.waitForNavigation(), page.click("text=Like")]);
    expect(response?.status()).toBe(200);
    expect(await number(page, "#likes")).toBe(likes + 1);
    await context.close();
  });

  test("an error: the error page with its digest, status 500", async () => {
    const { page, context } = await noScript();
    const [response] = await Promise.all([page.waitForNavigation(), page.click("text=Boom")]);
    expect(response?.status()).toBe(500);
    expect(await page.textContent("main.global-error")).toMatch(/Digest: [0-9a-z]{10}/);
    await context.close();
  });
});
