// Hydration and client navigation in Chromium, against the fixture app (test/fixtures/app) on a real socket.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { hydrated, launchBrowser, listenApp, watchPage, type ListeningApp, type PageWatch } from "brisk/test";
import { clientAssets, FIXTURE } from "../support/app.ts";

let server: ListeningApp;
let browser: Browser;
/** The navigation code, fetched after hydration. */
let navigationChunk: string;

beforeAll(async () => {
  // A development client: React then reports every hydration mismatch on the console.
  server = await listenApp({ ...FIXTURE, clientMode: "development" });
  navigationChunk = (await clientAssets("development")).manifest.chunks["src/runtime/browser/navigate.ts"]!;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(path: string): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  const watch = watchPage(page);
  await page.goto(server.origin + path);
  await hydrated(page);
  return { page, watch };
}

/** Marks the window so a full page load (which would lose the mark) can be told from client navigation. */
async function mark(page: Page) {
  await page.evaluate(() => ((window as unknown as { __mark: number }).__mark = 1));
}
const marked = (page: Page) => page.evaluate(() => (window as unknown as { __mark?: number }).__mark === 1);

describe("hydration", () => {
  test.each([
    "/",
    "/stream",
    "/search?q=%3C%2Fscript%3E%E2%80%A8",
    "/not-found",
    "/forbidden",
    "/server-error",
    "/render-error",
    "/late-not-found",
    "/client-error",
    "/lazy",
    "/no/such/page",
  ])("%s hydrates with no console errors and no CSP violation", async (path) => {
    const { page, watch } = await open(path);
    await page.waitForLoadState("networkidle");
    expect(watch.problems).toEqual([]);
    await page.close();
  });
});

describe("a first visit to a code-split route", () => {
  test("requests the route's chunk while the entry script is held back, and only once", async () => {
    const { manifest } = await clientAssets("development");
    const chunk = `${server.origin}/assets/${manifest.chunks["test/fixtures/app/lazy.tsx"]}`;
    const page = await browser.newPage();
    const watch = watchPage(page);
    const chunkRequests: string[] = [];
    const chunkRequested = new Promise<void>((resolve) =>
      page.on("request", (r) => {
        if (r.url() !== chunk) return;
        chunkRequests.push(r.url());
        resolve();
      }),
    );
    // The entry cannot run before it arrives, so a chunk request seen meanwhile came from the HTML. The
    // bound only matters when the test fails: it then ends in an assertion, not in a hung page load.
    let requestedBeforeEntry = false;
    await page.route(`**/assets/${manifest.entry}`, async (route) => {
      requestedBeforeEntry = await Promise.race([chunkRequested.then(() => true), Bun.sleep(5000).then(() => false)]);
      await route.continue();
    });
    await page.goto(`${server.origin}/lazy`);
    await hydrated(page);
    expect(requestedBeforeEntry).toBe(true);
    expect(await page.isVisible(".lazy")).toBe(true);
    await page.waitForLoadState("networkidle");
    expect(chunkRequests).toHaveLength(1);
    expect(watch.problems).toEqual([]);
    await page.close();
  });
});

describe("client navigation", () => {
  test("a Link click renders the target with no document request, and back/forward work", async () => {
    const { page, watch } = await open("/");
    await mark(page);
    await page.click('a[href="/search?q=brisk"]');
    await page.waitForSelector("#q");
    expect(await page.textContent("#q")).toBe("brisk");
    expect(page.url()).toBe(`${server.origin}/search?q=brisk`);
    await page.click('a[href="/"]');
    await page.waitForSelector("ul.links");
    await page.goBack();
    await page.waitForSelector("#q");
    expect(page.url()).toBe(`${server.origin}/search?q=brisk`);
    await page.goForward();
    await page.waitForSelector("ul.links");
    expect(page.url()).toBe(`${server.origin}/`);
    expect(await marked(page)).toBe(true);
    expect(watch.documents).toEqual([`${server.origin}/`]);
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  test("a redirect during client navigation lands on the target and replaces the history entry", async () => {
    const { page, watch } = await open("/stream");
    await mark(page);
    await page.click('a[href="/"]');
    await page.waitForSelector("ul.links");
    const before = await page.evaluate(() => history.length);
    await page.click('a[href="/redirect"]');
    await page.waitForFunction((n) => history.length === n + 1, before);
    expect(page.url()).toBe(`${server.origin}/`);
    await page.goBack();
    // Back skips the redirecting URL: the entry before the click was the home page itself.
    await page.waitForSelector("ul.links");
    expect(page.url()).toBe(`${server.origin}/`);
    await page.goBack();
    await page.waitForSelector("#streamed-section");
    expect(await marked(page)).toBe(true);
    expect(watch.documents).toHaveLength(1);
    await page.close();
  });

  test.each([
    ["/not-found", "Page not found"],
    ["/forbidden", "Forbidden"],
    ["/unauthorized", "Sign-in required"],
    ["/no/such/page", "Page not found"],
  ])("navigating to %s shows the same fallback the server renders", async (path, heading) => {
    const { page } = await open("/");
    await mark(page);
    await page.click(`a[href="${path}"]`);
    await page.waitForSelector("main.fallback h1");
    expect(await page.textContent("main.fallback h1")).toContain(heading);
    expect(await page.locator('meta[name="robots"][content="noindex"]').count()).toBe(1);
    expect(await marked(page)).toBe(true);
    await page.close();
  });

  test("navigating to a failing loader shows the server-side error page with its digest", async () => {
    const { page } = await open("/");
    await page.click('a[href="/server-error"]');
    await page.waitForSelector(".digest code");
    expect(await page.textContent("main")).toContain("server-side exception has occurred while loading 127.0.0.1");
    expect(await page.textContent(".digest code")).toMatch(/^[0-9a-z]{10}$/);
    await page.close();
  });

  test("the streamed section arrives after client navigation too", async () => {
    const { page } = await open("/");
    await page.click('a[href="/stream"]');
    await page.waitForSelector("#streamed-fallback");
    await page.waitForSelector("#streamed-section");
    await page.close();
  });

  test("a click before the navigation code has arrived waits for it, then navigates on the client", async () => {
    const page = await browser.newPage();
    const watch = watchPage(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const asked = Promise.withResolvers<void>();
    await page.route(`**/assets/${navigationChunk}`, async (route) => {
      asked.resolve();
      await held;
      await route.continue();
    });
    await page.goto(`${server.origin}/`, { waitUntil: "domcontentloaded" });
    await hydrated(page);
    await mark(page);
    await page.click('a[href="/search?q=brisk"]');
    // The code is asked for and held: the click has nothing to navigate with yet. (A full load instead would
    // show in the documents and lose the mark, below.)
    await asked.promise;
    expect(page.url()).toBe(`${server.origin}/`);
    release();
    await page.waitForSelector("#q");
    expect(page.url()).toBe(`${server.origin}/search?q=brisk`);
    expect(await marked(page)).toBe(true);
    expect(watch.documents).toEqual([`${server.origin}/`]);
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  test("the code-split route loads its chunk and its stylesheet on navigation", async () => {
    const { page } = await open("/");
    await page.click('a[href="/lazy"]');
    await page.waitForSelector(".lazy");
    // lazy.css's rebeccapurple.
    const color = await page.$eval(".lazy", (el) => getComputedStyle(el).color);
    expect(color).toBe("rgb(102, 51, 153)");
    await page.close();
  });

  test("a navigation to a code-split route preloads its chunks under the document's nonce, each fetched once", async () => {
    const { manifest } = await clientAssets("development");
    const [chunk] = manifest.lazyPages["lazy.tsx"]!.map((file) => `/assets/${file}`);
    const { page, watch } = await open("/");
    const nonce = await page.evaluate(() => (window as unknown as { __BRISK__: { nonce?: string } }).__BRISK__.nonce);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(new URL(r.url()).pathname));
    // The chunk is held back, so the page cannot render yet: a preload link seen meanwhile is the navigation's
    // own, not the one the document's <Links /> renders with the new page.
    const { promise: requested, resolve: onRequest } = Promise.withResolvers<void>();
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    await page.route(`**${chunk}`, async (route) => {
      onRequest();
      await released;
      await route.continue();
    });
    await page.click('a[href="/lazy"]');
    await requested;
    const preloads = await page.$$eval('head link[rel="modulepreload"]', (links) =>
      links.map((l) => ({ href: new URL((l as HTMLLinkElement).href).pathname, nonce: (l as HTMLLinkElement).nonce })),
    );
    expect(preloads.filter((p) => p.href === chunk)).toEqual([{ href: chunk!, nonce: nonce! }]);
    release();
    await page.waitForSelector(".lazy");
    expect(requests.filter((r) => r === chunk)).toEqual([chunk!]);
    expect(watch.problems).toEqual([]);
    await page.close();
  });
});

describe("after the shell", () => {
  test("late error: the error UI shows the server's digest, naming the host, with no CSP violation", async () => {
    const { page, watch } = await open("/late-error");
    await page.waitForSelector(".digest code");
    expect(watch.problems.filter((p) => p.includes("CSP"))).toEqual([]);
    const html = await (await fetch(`${server.origin}/__data/late-error`)).text();
    expect(html).toContain('"digest"');
    expect(await page.textContent("main")).toContain("server-side exception has occurred while loading 127.0.0.1");
    expect(await page.textContent(".digest code")).toMatch(/^[0-9a-z]{10}$/);
    await page.close();
  });

  test("late not-found: the fallback shows and noindex is present", async () => {
    const { page } = await open("/late-not-found");
    await page.waitForSelector("main.fallback");
    expect(await page.textContent("main.fallback h1")).toContain("Page not found");
    expect(await page.locator('meta[name="robots"][content="noindex"]').count()).toBeGreaterThanOrEqual(1);
    await page.close();
  });

  test("client error: the button leads to the client-side error page", async () => {
    const { page } = await open("/client-error");
    await page.click("text=Throw an error");
    await page.waitForSelector("main.global-error");
    expect(await page.textContent("main")).toContain("client-side exception has occurred while loading 127.0.0.1");
    await page.close();
  });
});

describe("a redirect to an unsafe target (issue 23, R3)", () => {
  // A browser drops C0 controls before reading a URL: these are another host and a script to it.
  const targets = ["\u0001//evil.example/", "\u0001javascript:document.title='taken'"];

  test.each(targets)("%p on a document request: the browser stays on the site, on the error page (500)", async (to) => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.origin}/redirect-to?to=${encodeURIComponent(to)}`).catch(() => null);
    expect(new URL(page.url()).origin).toBe(server.origin);
    expect(response?.status()).toBe(500);
    expect(await page.title()).not.toBe("taken");
    await page.close();
  });
});
