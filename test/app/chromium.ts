// chromium.ts: what the examples' browser tests share: the app on a port and Chromium, started before a file's tests
// and closed after them, and a page opened on a path and hydrated, with its watch.
import { afterAll, beforeAll } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hydrated, launchBrowser, listenApp, watchPage, type ListeningApp, type PageWatch } from "brisk/test";

export interface Chromium {
  /** The app on its port; set once the file's beforeAll has run. */
  readonly served: ListeningApp;
  readonly browser: Browser;
  /** A new page on `path`, once React has hydrated it. */
  open(path: string): Promise<{ page: Page; watch: PageWatch }>;
}

/** Call at a test file's top level: its tests then share one served app and one browser. */
export function useChromium(): Chromium {
  let served: ListeningApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [served, browser] = await Promise.all([listenApp(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useChromium: the app and the browser start in beforeAll");
    return value;
  };
  return {
    get served() {
      return started(served);
    },
    get browser() {
      return started(browser);
    },
    async open(path) {
      const page = await started(browser).newPage();
      const watch = watchPage(page);
      await page.goto(started(served).origin + path);
      await hydrated(page);
      return { page, watch };
    },
  };
}
