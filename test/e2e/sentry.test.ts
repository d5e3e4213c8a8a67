// Browser and server Sentry in Chromium, against a fake ingest: browser events travel through /monitoring,
// carry the server's digest, arrive once, and a page without a DSN downloads no Sentry code at all.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Event } from "@sentry/core";
import type { Browser, Page, Request } from "playwright-core";
import type { ClientAssets } from "../../src/brisk/server/assets.ts";
import { initServerSentry, type ServerMonitoring } from "../../src/brisk/server/sentry.ts";
import { clientAssets, EXAMPLE_APP_MODULE, listenApp, testConfig, type Listening } from "../support/app.ts";
import { hydrated, launchBrowser } from "../support/browser.ts";
import { startFakeIngest, type FakeIngest } from "../support/fake-ingest.ts";

const SENTRY_MODULE = "src/brisk/client/browser-sentry.ts";
const NAVIGATION_MODULE = "src/brisk/runtime/navigate.ts";

let ingest: FakeIngest;
let assets: ClientAssets;
let monitoring: ServerMonitoring;
/** SENTRY_DSN points at the fake ingest: server Sentry, browser Sentry and the tunnel are on. */
let withDsn: Listening;
let withoutDsn: Listening;
let browser: Browser;
let sentryChunk: string;

beforeAll(async () => {
  ingest = await startFakeIngest();
  assets = await clientAssets("production", EXAMPLE_APP_MODULE);
  sentryChunk = `/assets/${assets.manifest.chunks[SENTRY_MODULE]}`;
  const env = { SENTRY_DSN: ingest.dsn() };
  monitoring = initServerSentry(testConfig(env), assets.manifest.buildId)!;
  withDsn = await listenApp(env, { capture: monitoring.capture, appModule: EXAMPLE_APP_MODULE });
  withoutDsn = await listenApp({}, { appModule: EXAMPLE_APP_MODULE });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await withDsn?.stop();
  await withoutDsn?.stop();
  // Sentry is global to the process: later test files must not inherit this client.
  await monitoring?.close(2_000);
  await ingest?.stop();
});

beforeEach(() => ingest.reset());

const browserEvents = () => ingest.events().filter((e) => e.sdk?.name === "sentry.javascript.browser");
const serverEvents = () => ingest.events().filter((e) => e.sdk?.name === "sentry.javascript.bun");

/** Waits for `count` events, then a little longer, so a duplicate would have time to arrive too. */
async function settledEvents(read: () => Event[], count: number, timeoutMs = 10_000): Promise<Event[]> {
  const deadline = Date.now() + timeoutMs;
  while (read().length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} events, have ${JSON.stringify(ingest.events())}`);
    await Bun.sleep(20);
  }
  await Bun.sleep(500);
  await monitoring.flush(2_000);
  return read();
}

interface Visit {
  page: Page;
  requests: Request[];
}

async function visit(server: Listening, path: string): Promise<Visit> {
  const page = await browser.newPage();
  const requests: Request[] = [];
  page.on("request", (r) => void requests.push(r));
  await page.goto(server.origin + path, { waitUntil: "domcontentloaded" });
  await hydrated(page);
  return { page, requests };
}

const paths = (requests: Request[], origin: string) => requests.map((r) => `${r.method()} ${r.url().replace(origin, "")}`);

describe("browser events", () => {
  test("/examples/client-error: the client-side error page, and one event at the ingest that came through /monitoring", async () => {
    const { page, requests } = await visit(withDsn, "/examples/client-error");
    await page.click("text=Throw an error");
    await page.waitForSelector("main.global-error");
    expect(await page.textContent("main.global-error")).toContain("client-side exception has occurred while loading 127.0.0.1");

    const events = await settledEvents(browserEvents, 1);
    expect(events).toHaveLength(1);
    const [event] = events as [Event];
    expect(event.exception?.values?.at(-1)).toMatchObject({
      value: "Example failure in the browser (/examples/client-error)",
      mechanism: { type: "brisk.boundary", handled: true },
    });
    expect(event.tags?.digest).toBeUndefined();
    expect(event.environment).toBe("production");
    expect(event.release).toBe(assets.manifest.buildId);
    expect(serverEvents()).toEqual([]);

    // Through the tunnel: the page posted to /monitoring and never to the ingest itself; the envelope names
    // the DSN (only tunnelled envelopes do), and the tunnel added the visitor's address.
    expect(paths(requests, withDsn.origin)).toContain("POST /monitoring");
    expect(requests.filter((r) => r.url().startsWith(ingest.url))).toEqual([]);
    const delivered = ingest.received.filter((r) => r.text.includes('"type":"event"'));
    expect(delivered).toHaveLength(1);
    expect(JSON.parse(delivered[0]!.text.split("\n")[0]!).dsn).toBe(ingest.dsn());
    expect(delivered[0]!.headers.get("x-forwarded-for")).toBe("127.0.0.1");
    await page.close();
  });

  test("/examples/late-error: a server event and a browser event with the digest the page shows", async () => {
    const { page } = await visit(withDsn, "/examples/late-error");
    await page.waitForSelector(".digest code");
    const digest = await page.textContent(".digest code");
    expect(digest).toMatch(/^[0-9a-z]{10}$/);

    const fromBrowser = await settledEvents(browserEvents, 1);
    const fromServer = serverEvents();
    expect(fromBrowser).toHaveLength(1);
    expect(fromServer).toHaveLength(1);
    expect(fromBrowser[0]?.tags?.digest).toBe(digest!);
    expect(fromServer[0]?.tags?.digest).toBe(digest!);
    await page.close();
  });

  test("an error raised before the Sentry chunk has loaded is sent once it has, and hydration did not wait", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const page = await browser.newPage();
    let chunkServed = false;
    await page.route(`**${sentryChunk}`, async (route) => {
      await held;
      await route.continue();
      chunkServed = true;
    });
    await page.goto(`${withDsn.origin}/examples/client-error`, { waitUntil: "domcontentloaded" });
    await hydrated(page);
    await page.click("text=Throw an error");
    await page.waitForSelector("main.global-error");
    await Bun.sleep(300);
    expect(chunkServed).toBe(false);
    expect(ingest.received).toEqual([]);

    release();
    const events = await settledEvents(browserEvents, 1);
    expect(events).toHaveLength(1);
    expect(events[0]?.exception?.values?.at(-1)?.value).toBe("Example failure in the browser (/examples/client-error)");
    await page.close();
  });

  test("an error outside every boundary: the client-side error page replaces the document, and one unhandled event", async () => {
    const { page } = await visit(withDsn, "/");
    // Page data of this build whose assets list breaks the <head>, which no error boundary wraps.
    const broken = {
      v: 2,
      buildId: assets.manifest.buildId,
      path: "/examples/search",
      search: "q=brisk",
      route: "/examples/search",
      data: { q: "brisk" },
      deferred: [],
      assets: { css: [], js: null },
    };
    await page.route("**/__data/examples/search*", (route) =>
      route.fulfill({ status: 200, contentType: "application/x-ndjson", body: `${JSON.stringify(broken)}\n` }),
    );
    await page.click('a[href="/examples/search?q=brisk"]');
    await page.waitForSelector("main.global-error");
    expect(await page.textContent("main.global-error")).toContain("client-side exception has occurred while loading 127.0.0.1");
    // The app's stylesheet outlives the unmounted tree: the error page keeps the site's look.
    expect(await page.$eval(".fallback h1", (h) => getComputedStyle(h).marginTop)).toBe("32px");

    const events = await settledEvents(browserEvents, 1);
    expect(events).toHaveLength(1);
    expect(events[0]?.exception?.values?.at(-1)?.mechanism).toMatchObject({ type: "brisk.uncaught", handled: false });
    await page.close();
  });

  test("/examples/late-not-found: an outcome, so neither side sends anything", async () => {
    const { page, requests } = await visit(withDsn, "/examples/late-not-found");
    await page.waitForSelector("main.fallback");
    // Sentry is running: had anything been reported, it would be on its way.
    await page.waitForFunction(() => (window as { __SENTRY__?: object }).__SENTRY__ !== undefined);
    expect(paths(requests, withDsn.origin)).toContain(`GET ${sentryChunk}`);
    await page.waitForLoadState("networkidle");
    await Bun.sleep(500);
    await monitoring.flush(2_000);
    expect(ingest.events()).toEqual([]);
    await page.close();
  });
});

describe("loading", () => {
  /** The critical path, then the navigation code every page fetches once it is hydrating. */
  const firstVisit = () =>
    [assets.manifest.entry, ...assets.manifest.preload, assets.manifest.chunks[NAVIGATION_MODULE]!].map((f) => `GET /assets/${f}`).sort();
  const scripts = (v: Visit, origin: string) =>
    paths(
      v.requests.filter((r) => r.resourceType() === "script"),
      origin,
    ).sort();

  test("a first visit's critical path is the entry and one chunk, and the page needs nothing else to hydrate", async () => {
    // A fixed expectation, not one read off the manifest: a new shared chunk on the critical path fails here.
    expect(assets.manifest.preload).toHaveLength(1);
    const home = await visit(withoutDsn, "/");
    await home.page.waitForLoadState("networkidle");
    const navigation = `GET /assets/${assets.manifest.chunks[NAVIGATION_MODULE]}`;
    expect(scripts(home, withoutDsn.origin).filter((s) => s !== navigation)).toHaveLength(2);
    await home.page.close();
  });

  test("without a DSN no Sentry code is downloaded, even after an error, and nothing is posted", async () => {
    const home = await visit(withoutDsn, "/");
    await home.page.waitForLoadState("networkidle");
    expect(scripts(home, withoutDsn.origin)).toEqual(firstVisit());

    const failing = await visit(withoutDsn, "/examples/client-error");
    await failing.page.click("text=Throw an error");
    await failing.page.waitForSelector("main.global-error");
    await failing.page.waitForLoadState("networkidle");
    expect(scripts(failing, withoutDsn.origin)).toEqual(firstVisit());
    expect(paths(failing.requests, withoutDsn.origin)).not.toContain("POST /monitoring");
    await Promise.all([home.page.close(), failing.page.close()]);
  });

  test("with a DSN the Sentry chunk is the one script beyond those of a page without", async () => {
    const home = await visit(withDsn, "/");
    await home.page.waitForLoadState("networkidle");
    expect(scripts(home, withDsn.origin)).toEqual([...firstVisit(), `GET ${sentryChunk}`].sort());
    await home.page.close();
  });
});
