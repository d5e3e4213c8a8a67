// opened-page.ts (test support): a page opened in Chromium on a path, hydrated when it runs JavaScript, with its
// watch and the page-data requests it makes (method, path and search), for the tests of client navigation.
import type { Browser, Page } from "playwright-core";
import { hydrated, watchPage, type PageWatch } from "brisk/test";

export interface OpenedPage {
  page: Page;
  watch: PageWatch;
  /** Each page-data request, as `/__data/…?…`, a post's as `POST /__data/…`. */
  data: string[];
}

/** A new context (its own cookies) and page on `origin + path`; close it with `page.context().close()`. */
export async function openPage(
  browser: Browser,
  origin: string,
  path: string,
  { javaScript = true } = {},
): Promise<OpenedPage> {
  const page = await (await browser.newContext({ javaScriptEnabled: javaScript })).newPage();
  const watch = watchPage(page);
  const data: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/__data/"))
      data.push(`${r.method() === "GET" ? "" : `${r.method()} `}${url.pathname}${url.search}`);
  });
  await page.goto(origin + path);
  if (javaScript) await hydrated(page);
  return { page, watch, data };
}

/** Every value `selector`'s text takes from now on, however briefly: read them with `seenTexts`. */
export async function recordTexts(page: Page, selector: string): Promise<void> {
  await page.evaluate((s) => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    const target = document.querySelector(s)!;
    new MutationObserver(() => seen.push(target.textContent ?? "")).observe(target, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  }, selector);
}

export const seenTexts = (page: Page) => page.evaluate(() => (window as unknown as { seen: string[] }).seen);

/** Holds the requests to `pattern` (a glob) until the returned function is called. */
export async function hold(page: Page, pattern: string, method = "POST"): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(pattern, async (route) => {
    if (route.request().method() === method) await held;
    await route.continue();
  });
  return release;
}
