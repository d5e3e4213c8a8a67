// Nested routes and routes without a page in Chromium: moving between /examples/nested's children keeps the layout
// (what was typed, its loader's count) without a document load, a child's not-found and error show inside it, the
// guestbook's Like button (a fetcher) counts up at once and works with JavaScript off, and the RSS feed is XML a strict
// parser reads.
import { expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();
const { open } = chromium;

/** One new guestbook entry, through the API. */
async function addEntry(name: string, message: string): Promise<number> {
  const res = await fetch(`${chromium.served.origin}/api/guestbook`, {
    method: "POST",
    headers: { origin: chromium.served.origin, "content-type": "application/json" },
    body: JSON.stringify({ name, message }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** An entry's likes, as the API says. */
async function likesOf(id: number): Promise<number | undefined> {
  const { entries } = (await (await fetch(`${chromium.served.origin}/api/guestbook`)).json()) as {
    entries: Array<{ id: number; likes: number }>;
  };
  return entries.find((e) => e.id === id)?.likes;
}

const nav = (page: Page, href: string) => page.click(`#nested-nav a[href="${href}"]`);
const layoutLoads = async (page: Page) => Number(await page.textContent("#layout-loads"));

test("moving between the children keeps the layout: what was typed, its loader's count, one document load", async () => {
  const { page, watch } = await open("/examples/nested");
  await page.fill("#nested-input", "typed before moving");
  const loads = await layoutLoads(page);
  const steps: Array<[href: string, shown: string, text: RegExp]> = [
    ["/examples/nested/items/1", "#item", /^Item 1$/],
    ["/examples/nested/items/2", "#item", /^Item 2$/],
    ["/examples/nested/slow", "#slow", /side by side/],
    ["/examples/nested", "#nested-index", /index route/],
  ];
  for (const [href, shown, text] of steps) {
    await nav(page, href);
    await page.waitForURL(chromium.served.origin + href);
    await page.locator(shown).filter({ hasText: text }).waitFor();
    expect(await page.inputValue("#nested-input")).toBe("typed before moving");
    expect(await layoutLoads(page)).toBe(loads);
  }
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/nested`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("a child's not-found shows inside the layout, which stays as it was", async () => {
  const { page, watch } = await open("/examples/nested/items/1");
  await page.fill("#nested-input", "still here");
  await nav(page, "/examples/nested/items/404");
  await page.getByRole("heading", { name: "404 Not in this layout" }).waitFor();
  expect(await page.isVisible("#nested-nav")).toBe(true);
  expect(await page.inputValue("#nested-input")).toBe("still here");
  expect(await page.locator("#item").count()).toBe(0);
  // And back: the child again, in the same layout.
  await nav(page, "/examples/nested/items/2");
  await page.locator("#item", { hasText: "Item 2" }).waitFor();
  expect(await page.inputValue("#nested-input")).toBe("still here");
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/nested/items/1`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("the bump button (a fetcher whose action redirects): the layout's count moves without a reload", async () => {
  const { page, watch } = await open("/examples/nested");
  const bumps = Number(await page.textContent("#bumps"));
  await page.click("#nested-bump");
  await page.locator("#bumps", { hasText: String(bumps + 1) }).waitFor();
  await page.locator("#nested-bump:enabled").waitFor();
  expect(page.url()).toBe(`${chromium.served.origin}/examples/nested`);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/nested`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("the bump button with JavaScript off: the browser posts, follows the 303 and shows the new count", async () => {
  const context = await chromium.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${chromium.served.origin}/examples/nested`);
  const bumps = Number(await page.textContent("#bumps"));
  const [response] = await Promise.all([page.waitForNavigation(), page.click("#nested-bump")]);
  expect(response?.url()).toBe(`${chromium.served.origin}/examples/nested`);
  expect(Number(await page.textContent("#bumps"))).toBe(bumps + 1);
  await context.close();
});

test("the broken child shows the error and its digest inside the layout, on a document and after a client navigation", async () => {
  const direct = await open("/examples/nested/broken");
  const digest = await direct.page.textContent(".nested-error .digest code");
  expect(digest).toMatch(/^[0-9a-z]{6,}$/);
  expect(await direct.page.isVisible("#nested-nav")).toBe(true);
  expect(direct.watch.problems).toEqual([]);
  await direct.page.close();

  const { page, watch } = await open("/examples/nested");
  await page.fill("#nested-input", "kept through the error");
  await nav(page, "/examples/nested/broken");
  await page.locator(".nested-error .digest code").waitFor();
  expect(await page.textContent(".nested-error .digest code")).not.toBe(digest);
  expect(await page.isVisible("#nested-nav")).toBe(true);
  expect(await page.inputValue("#nested-input")).toBe("kept through the error");
  expect(await page.getByRole("heading", { name: "Application error" }).count()).toBe(0);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/nested`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("Like with JavaScript off: the browser posts the form, follows the 303 and shows the new count", async () => {
  const id = await addEntry("No script", `like without JavaScript ${crypto.randomUUID()}`);
  const context = await chromium.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const documents: string[] = [];
  page.on(
    "request",
    (r) => void (r.resourceType() === "document" && documents.push(`${r.method()} ${new URL(r.url()).pathname}`)),
  );
  await page.goto(`${chromium.served.origin}/examples/guestbook`);
  const entry = page.locator("ol.entries li", { has: page.locator(`a[href="/examples/guestbook/${id}"]`) });
  expect(await entry.locator(".likes").textContent()).toBe("0");
  await Promise.all([
    page.waitForResponse(
      (r) => r.url() === `${chromium.served.origin}/examples/guestbook` && r.request().method() === "GET",
    ),
    entry.getByRole("button", { name: "Like" }).click(),
  ]);
  await page.waitForLoadState();
  expect(page.url()).toBe(`${chromium.served.origin}/examples/guestbook`);
  expect(await entry.locator(".likes").textContent()).toBe("1");
  expect(documents).toEqual([
    "GET /examples/guestbook",
    `POST /examples/guestbook/${id}/like`,
    "GET /examples/guestbook",
  ]);
  await context.close();
});

/** Records, in order, every count the entry's `.likes` shows from now on (window.shownLikes). */
async function recordLikes(entry: Locator): Promise<() => Promise<string[]>> {
  await entry.evaluate((li) => {
    const likes = li.querySelector(".likes")!;
    const shown: string[] = ((window as unknown as { shownLikes: string[] }).shownLikes = []);
    new MutationObserver(
      () => void (shown.at(-1) !== likes.textContent && shown.push(likes.textContent ?? "")),
    ).observe(likes, { subtree: true, childList: true, characterData: true });
  });
  return () => entry.page().evaluate(() => (window as unknown as { shownLikes: string[] }).shownLikes);
}

/** Holds the page's posts to `pattern` until the returned function is called; `posted` lists them. */
async function holdPosts(page: Page, pattern: string): Promise<{ posted: string[]; release(): void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const posted: string[] = [];
  await page.route(pattern, async (route) => {
    posted.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
    await held;
    await route.continue();
  });
  return { posted, release };
}

/**
 * Adds an entry the open guestbook does not show yet; the wait it returns resolves once the page shows it: the
 * list's data has been loaded again and rendered, with whatever else that render brings.
 */
async function nextGuestbookRender(page: Page): Promise<() => Promise<void>> {
  const marker = `an entry added meanwhile ${crypto.randomUUID()}`;
  await addEntry("Meanwhile", marker);
  return () => page.locator("ol.entries li", { hasText: marker }).waitFor();
}

test("Like with JavaScript on: a fetcher; the count goes up at once, before the server answers, and stays; no document load", async () => {
  const id = await addEntry("Script", `like with JavaScript ${crypto.randomUUID()}`);
  const { page, watch } = await open("/examples/guestbook");
  const entry = page.locator("ol.entries li", { has: page.locator(`a[href="/examples/guestbook/${id}"]`) });
  // The like's post is held: what shows meanwhile is the fetcher's formData, the server has not counted it.
  const hold = await holdPosts(page, `**/examples/guestbook/${id}/like`);
  await entry.getByRole("button", { name: "Like" }).click();
  await entry.locator(".likes", { hasText: /^1$/ }).waitFor();
  expect(hold.posted).toEqual([`POST /__data/examples/guestbook/${id}/like`]);
  expect(await likesOf(id)).toBe(0);
  // The answer (303 back to the list, whose data is loaded again): the stored count takes over, the same.
  const reloaded = await nextGuestbookRender(page);
  hold.release();
  await reloaded();
  expect(await entry.locator(".likes").textContent()).toBe("1");
  expect(await likesOf(id)).toBe(1);
  // Again, not held: one more, and still no document load.
  await page.unrouteAll();
  const again = await nextGuestbookRender(page);
  await entry.getByRole("button", { name: "Like" }).click();
  await again();
  expect(await entry.locator(".likes").textContent()).toBe("2");
  expect(await likesOf(id)).toBe(2);
  expect(page.url()).toBe(`${chromium.served.origin}/examples/guestbook`);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/guestbook`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

// The page's new loader data and the fetcher's end render together: never 1 + 1 = 2 for a moment.
test("Like with JavaScript on: the optimistic count never shows a like twice while the answer lands (1, never 2)", async () => {
  const id = await addEntry("Steady", `like without a flicker ${crypto.randomUUID()}`);
  const { page } = await open("/examples/guestbook");
  const entry = page.locator("ol.entries li", { has: page.locator(`a[href="/examples/guestbook/${id}"]`) });
  const shownLikes = await recordLikes(entry);
  const reloaded = await nextGuestbookRender(page);
  await entry.getByRole("button", { name: "Like" }).click();
  await reloaded();
  const shown = await shownLikes();
  await page.close();
  expect(await likesOf(id)).toBe(1);
  // What it shows today: ["1", "2", "1"].
  expect(shown).toEqual(["1"]);
});

test("the RSS feed is well-formed XML to Chromium's strict parser, each entry's text exactly as written", async () => {
  const name = `<i>Feed</i> & "reader's"`;
  const message = "<script>alert('x')</script> &amp; ]]> \u2028 done";
  const id = await addEntry(name, message);
  const page = await chromium.browser.newPage();
  await page.goto(`${chromium.served.origin}/examples/guestbook.rss`);
  const feed = await page.evaluate(async (link) => {
    const xml = await (await fetch("/examples/guestbook.rss")).text();
    const doc = new DOMParser().parseFromString(xml, "application/xml");
    const item = [...doc.querySelectorAll("item")].find((i) => i.querySelector("link")?.textContent === link);
    // A reader renders the description as HTML: what a person reads is that HTML's text.
    const shown = document.createElement("div");
    shown.innerHTML = item?.querySelector("description")?.textContent ?? "";
    return {
      errors: doc.getElementsByTagName("parsererror").length,
      root: doc.documentElement.nodeName,
      version: doc.documentElement.getAttribute("version"),
      title: item?.querySelector("title")?.textContent,
      description: shown.textContent,
      markup: shown.querySelectorAll("script, i").length,
      pubDate: Date.parse(item?.querySelector("pubDate")?.textContent ?? ""),
    };
  }, `${chromium.served.origin}/examples/guestbook/${id}`);
  expect(feed).toEqual({
    errors: 0,
    root: "rss",
    version: "2.0",
    title: name,
    description: message,
    markup: 0,
    pubDate: expect.any(Number),
  });
  expect(Number.isNaN(feed.pubDate)).toBe(false);
  await page.close();
});
