// Browser and server Sentry in Chromium, against a fake ingest: browser events travel through /monitoring,
// carry the server's digest, arrive once, and a page without a DSN downloads no Sentry code at all. On the
// fixture app (test/fixtures/app).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { isIgnored, originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import type { Event } from "@sentry/core";
import type { Browser, Page, Request } from "playwright-core";
import type { ClientAssets } from "../../src/server/assets/assets.ts";
import { type ServerMonitoring } from "../../src/server/monitoring/sentry.ts";
import { sentryDebugId } from "../../src/runtime/debug-id.ts";
import { TRACING_MODULE } from "../../src/server/assets/manifest.ts";
import { CODEC_MODULE } from "../../src/server/pages/wire.ts";
import { hydrated, launchBrowser, listenApp, type FakeIngest, type ListeningApp } from "brisk/test";
import { assetRequests, clientSourcemaps, FIXTURE, listenWith } from "../support/app.ts";
import { pageSentrySent } from "../support/page-sentry.ts";
import { useServerSentry } from "../support/sentry-ingest.ts";
import { UNSENT_KEY } from "../../src/runtime/browser/reporter.ts";

const SENTRY_MODULE = "src/runtime/browser/browser-sentry.ts";
const NAVIGATION_MODULE = "src/runtime/browser/navigate.ts";

const sentry = useServerSentry({}, "production");
let ingest: FakeIngest;
let assets: ClientAssets;
let monitoring: ServerMonitoring;
/** SENTRY_DSN points at the fake ingest: server Sentry, browser Sentry and the tunnel are on. */
let withDsn: ListeningApp;
let withoutDsn: ListeningApp;
let browser: Browser;
let sentryChunk: string;
let dataDir: string;

beforeAll(async () => {
  ({ ingest, assets, monitoring, dataDir } = sentry());
  sentryChunk = `/assets/${assets.manifest.chunks[SENTRY_MODULE]}`;
  withDsn = await listenWith({ ...FIXTURE, env: sentry().env }, sentry().deps);
  withoutDsn = await listenApp(FIXTURE);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await withDsn?.stop();
  await withoutDsn?.stop();
});

beforeEach(() => ingest.reset());

const browserEvents = () => ingest.events().filter((e) => e.sdk?.name === "sentry.javascript.browser");
const serverEvents = () => ingest.events().filter((e) => e.sdk?.name === "sentry.javascript.bun");

/** Both sides' Sentry have sent all they hold, each send answered: what the ingest has now is all it gets. */
async function allSent(page: Page): Promise<void> {
  await pageSentrySent(page);
  expect(await monitoring.flush(2_000)).toBe(true);
}

/** Waits for `count` events, then for everything else either side holds, so a duplicate would be there too. */
async function settledEvents(page: Page, read: () => Event[], count: number, timeoutMs = 10_000): Promise<Event[]> {
  await ingest
    .waitFor(() => read().length >= count, timeoutMs)
    .catch((error: Error) => {
      throw new Error(`expected ${count} events, have ${JSON.stringify(ingest.events())}`, { cause: error });
    });
  await allSent(page);
  return read();
}

/** The page's sessions at the ingest, once `condition` holds of them. */
async function sessionsOnce(condition: (sessions: Session[]) => boolean): Promise<Session[]> {
  const sessions = () => ingest.items("session") as Session[];
  await ingest.waitFor(() => condition(sessions()), 10_000);
  return sessions();
}

interface Visit {
  page: Page;
  requests: Request[];
}

interface Session {
  sid: string;
  status: string;
  init: boolean;
  errors: number;
  attrs: Record<string, string>;
}

async function visit(server: ListeningApp, path: string): Promise<Visit> {
  const page = await browser.newPage();
  const requests: Request[] = [];
  page.on("request", (r) => void requests.push(r));
  await page.goto(server.origin + path, { waitUntil: "domcontentloaded" });
  await hydrated(page);
  return { page, requests };
}

/** In the page: whether Sentry's offline queue (IndexedDB, made by the page's Sentry) holds `some` envelopes or `none`. */
type QueueState = "some" | "none";
const offlineQueue = (want: QueueState) =>
  new Promise<boolean>((resolve) => {
    const open = indexedDB.open("sentry-offline");
    open.onerror = () => resolve(false);
    open.onsuccess = () => {
      const db = open.result;
      const answer = (holds: boolean) => {
        db.close();
        resolve(holds);
      };
      if (!db.objectStoreNames.contains("queue")) return answer(false);
      const count = db.transaction("queue").objectStore("queue").count();
      count.onsuccess = () => answer(want === "some" ? count.result > 0 : count.result === 0);
      count.onerror = () => answer(false);
    };
  });

const paths = (requests: Request[], origin: string) =>
  requests.map((r) => `${r.method()} ${r.url().replace(origin, "")}`);

describe("browser events", () => {
  test("/client-error: the client-side error page, and one event at the ingest that came through /monitoring", async () => {
    const { page, requests } = await visit(withDsn, "/client-error");
    await page.click("text=Throw an error");
    await page.waitForSelector("main.global-error");
    expect(await page.textContent("main.global-error")).toContain(
      "client-side exception has occurred while loading 127.0.0.1",
    );

    // The digest made in the browser: on the page, and the event's digest tag.
    const digest = await page.textContent("main.global-error .digest code");
    expect(digest).toMatch(/^[0-9a-z]{10}$/);

    const events = await settledEvents(page, browserEvents, 1);
    expect(events).toHaveLength(1);
    const [event] = events as [Event];
    // Unhandled: the visitor was left with the error page.
    expect(event.exception?.values?.at(-1)).toMatchObject({
      value: "Fixture failure in the browser",
      mechanism: { type: "brisk.boundary", handled: false },
    });
    expect(event.tags?.digest).toBe(digest!);
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

  test("/late-error: a server event and a browser event with the digest the page shows", async () => {
    const { page } = await visit(withDsn, "/late-error");
    await page.waitForSelector(".digest code");
    const digest = await page.textContent(".digest code");
    expect(digest).toMatch(/^[0-9a-z]{10}$/);

    const fromBrowser = await settledEvents(page, browserEvents, 1);
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
    const asked = Promise.withResolvers<void>();
    const page = await browser.newPage();
    let chunkServed = false;
    await page.route(`**${sentryChunk}`, async (route) => {
      asked.resolve();
      await held;
      await route.continue();
      chunkServed = true;
    });
    await page.goto(`${withDsn.origin}/client-error`, { waitUntil: "domcontentloaded" });
    await hydrated(page);
    await page.click("text=Throw an error");
    await page.waitForSelector("main.global-error");
    // The page has asked for Sentry's code and is still waiting for it: nothing could send the error yet.
    await asked.promise;
    expect(chunkServed).toBe(false);
    expect(ingest.received).toEqual([]);

    release();
    const events = await settledEvents(page, browserEvents, 1);
    expect(events).toHaveLength(1);
    expect(events[0]?.exception?.values?.at(-1)?.value).toBe("Fixture failure in the browser");
    // It counts against the page's session: Sentry starts in steps, and the session is on before a queued error goes.
    const sessions = await sessionsOnce((all) => all.some((s) => s.errors > 0));
    const started = sessions.filter((s) => s.init);
    expect(started).toHaveLength(1);
    expect(sessions.filter((s) => s.errors > 0).map((s) => s.sid)).toEqual([started[0]!.sid]);
    await page.close();
  });

  test("an error outside every boundary: the client-side error page replaces the document, and one unhandled event", async () => {
    const { page } = await visit(withDsn, "/");
    // Page data of this build whose inline stylesheets break the <head>, which no error boundary wraps (only
    // <Links /> reads them: a broken `css` or `js` would stop the navigation before it renders).
    const broken = {
      v: 3,
      buildId: assets.manifest.buildId,
      path: "/search",
      search: "q=brisk",
      route: "/search",
      levels: [{ id: "/search", data: { q: "brisk" } }],
      assets: { css: [], js: [], inline: 5 },
    };
    await page.route("**/__data/search*", (route) =>
      route.fulfill({ status: 200, contentType: "application/x-ndjson", body: `${JSON.stringify(broken)}\n` }),
    );
    await page.click('a[href="/search?q=brisk"]');
    await page.waitForSelector("main.global-error");
    expect(await page.textContent("main.global-error")).toContain(
      "client-side exception has occurred while loading 127.0.0.1",
    );
    // The app's stylesheet outlives the unmounted tree: the error page keeps the site's look (its 2rem margin).
    expect(await page.$eval("main.global-error", (main) => getComputedStyle(main).marginTop)).toBe("32px");

    const events = await settledEvents(page, browserEvents, 1);
    expect(events).toHaveLength(1);
    expect(events[0]?.exception?.values?.at(-1)?.mechanism).toMatchObject({ type: "brisk.uncaught", handled: false });
    await page.close();
  });

  test("/late-not-found: an outcome, so neither side sends anything", async () => {
    const { page, requests } = await visit(withDsn, "/late-not-found");
    await page.waitForSelector("main.fallback");
    // Sentry is running: had anything been reported, it would be on its way.
    await page.waitForFunction(() => (window as { __SENTRY__?: object }).__SENTRY__ !== undefined);
    expect(paths(requests, withDsn.origin)).toContain(`GET ${sentryChunk}`);
    await allSent(page);
    expect(ingest.events()).toEqual([]);
    await page.close();
  });
});

describe("what a browser event carries", () => {
  test("its top frame resolves through the build's source map to the throwing component, and it names the script's debug id", async () => {
    const { page } = await visit(withDsn, "/client-error");
    await page.click("text=Throw an error");
    const [event] = await settledEvents(page, browserEvents, 1);
    const top = event!.exception!.values!.at(-1)!.stacktrace!.frames!.at(-1)!;
    const script = new URL(top.filename!).pathname.replace("/assets/", "");
    const dir = await clientSourcemaps();
    const json = (await Bun.file(join(dir, `${script}.map`)).json()) as { debugId: string };
    const map = new TraceMap(json as never);
    const original = originalPositionFor(map, { line: top.lineno!, column: top.colno! - 1 });
    expect(original.source).toBe("test/fixtures/app/pages.tsx");
    // The line that throws: `throw new Error("Fixture failure in the browser")`.
    const source = (await Bun.file(join(import.meta.dir, "../..", original.source!)).text()).split("\n")[
      original.line! - 1
    ];
    expect(source).toContain('throw new Error("Fixture failure in the browser");');
    // Sentry names a frame's function after its scope's name, mapped: the innermost frame is the component's.
    const minified = (await Bun.file(join(dir, script)).text()).split("\n")[top.lineno! - 1]!.slice(0, top.colno! - 1);
    const scope = [...minified.matchAll(/function ([A-Za-z_$][\w$]*)\(/g)].at(-1)!;
    expect(originalPositionFor(map, { line: top.lineno!, column: scope.index! + "function ".length }).name).toBe(
      "ClientError",
    );
    // Once mapped, React's frames are a dependency's (the map's ignore list), the component's the app's own.
    const frames = event!.exception!.values!.at(-1)!.stacktrace!.frames!.filter((f) => f.filename === top.filename);
    const mapped = frames.map((f) => originalPositionFor(map, { line: f.lineno!, column: f.colno! - 1 }).source!);
    expect(mapped.filter((s) => s.startsWith("node_modules/react-dom/")).length).toBeGreaterThan(0);
    for (const source of mapped)
      expect({ source, ignored: isIgnored(map, source) }).toEqual({
        source,
        ignored: source.startsWith("node_modules/"),
      });
    expect(event!.debug_meta?.images).toContainEqual({
      type: "sourcemap",
      code_file: top.filename!,
      debug_id: sentryDebugId(json.debugId),
    });
    await page.close();
  });

  test("its page URL has query secrets masked, code, email, sig, state, otp and nonce among them, and its Referer no query at all", async () => {
    const page = await browser.newPage();
    const referer = `${withDsn.origin}/reset?token=reset-secret`;
    await page.goto(
      `${withDsn.origin}/client-error?token=t-secret&code=c-secret&email=a%40b.example&sig=s-secret&state=st-secret&otp=otp-secret&nonce=n-secret&q=shown`,
      { referer },
    );
    await hydrated(page);
    await page.click("text=Throw an error");
    const [event] = await settledEvents(page, browserEvents, 1);
    expect(event?.request?.url).toBe(
      `${withDsn.origin}/client-error?token=[Filtered]&code=[Filtered]&email=[Filtered]&sig=[Filtered]&state=[Filtered]&otp=[Filtered]&nonce=[Filtered]&q=shown`,
    );
    expect(event?.request?.headers?.Referer).toBe(`${withDsn.origin}/reset`);
    expect(JSON.stringify(event)).not.toMatch(
      /reset-secret|t-secret|c-secret|s-secret|a%40b|st-secret|otp-secret|n-secret/,
    );
    await page.close();
  });

  test("by default no envelope asks Sentry to infer the visitor's IP; each page load is one session", async () => {
    const home = await visit(withDsn, "/");
    const failing = await visit(withDsn, "/client-error");
    await failing.page.click("text=Throw an error");
    await settledEvents(failing.page, browserEvents, 1);
    const sessions = await sessionsOnce((all) => all.length >= 2);
    await Promise.all([home.page.close(), failing.page.close()]);
    expect(new Set(sessions.filter((s) => s.init).map((s) => s.sid)).size).toBe(2);
    for (const session of sessions) {
      expect(session.attrs).toMatchObject({ release: assets.manifest.buildId, environment: "production" });
      expect(session.attrs.ip_address).toBeUndefined();
    }
    for (const event of browserEvents()) {
      expect(event.sdk?.settings?.infer_ip).toBe("never");
      expect(event.user?.ip_address).toBeUndefined();
    }
    expect(ingest.received.map((r) => r.text).join("\n")).not.toContain('"infer_ip":"auto"');
    expect(ingest.received.map((r) => r.text).join("\n")).not.toContain("{{auto}}");
  });

  test("breadcrumbs (tracing off): the clicks, the page-data fetch with its status, the navigation and the console line before the error", async () => {
    const { page } = await visit(withDsn, "/");
    await page.waitForFunction(() => (window as { __SENTRY__?: object }).__SENTRY__ !== undefined);
    await page.click('a[href="/client-error"]');
    await page.waitForSelector("text=Throw an error");
    await page.evaluate(() => console.warn("about to press the button"));
    await page.click("text=Throw an error");
    const [event] = await settledEvents(page, browserEvents, 1);
    const crumbs = event!.breadcrumbs ?? [];
    expect(crumbs).toContainEqual(
      expect.objectContaining({ category: "navigation", data: { from: "/", to: "/client-error" } }),
    );
    expect(crumbs).toContainEqual(
      expect.objectContaining({ category: "console", level: "warning", message: "about to press the button" }),
    );
    expect(crumbs).toContainEqual(
      expect.objectContaining({ category: "ui.click", message: "body > main > ul.links > li > a" }),
    );
    expect(crumbs).toContainEqual(
      expect.objectContaining({
        category: "fetch",
        data: { method: "GET", url: "/__data/client-error", status_code: 200 },
      }),
    );
    // The button's own click too, although React's listener (older than Sentry's) renders, and fails, within it.
    const steps = crumbs.map((c) => `${c.category} ${c.message ?? ""}`.trim());
    expect(steps.filter((s) => s.startsWith("ui.click") || s.startsWith("navigation"))).toEqual([
      "ui.click body > main > ul.links > li > a",
      "navigation",
      'ui.click body > button[type="button"]',
    ]);
    await page.close();
  });

  test("a route chunk that fails while the Sentry chunk cannot load either is reported by the next page that has Sentry", async () => {
    const context = await browser.newContext();
    const lazyChunk = assetRequests(assets.manifest.chunks["test/fixtures/app/lazy.tsx"]!);
    await context.route(lazyChunk, (route) => route.abort());
    await context.route(`**${sentryChunk}`, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${withDsn.origin}/lazy`);
    // A retry, a full page load, then the load-failure page.
    await page.waitForSelector("main.route-load-failed", { timeout: 20_000 });
    // Without its Sentry, the page keeps the report for the next one, and sends nothing.
    await page.waitForFunction((key) => (localStorage.getItem(key) ?? "").includes("Route failed to load"), UNSENT_KEY);
    expect(browserEvents()).toEqual([]);

    await context.unroute(lazyChunk);
    await context.unroute(`**${sentryChunk}`);
    await page.goto(`${withDsn.origin}/`);
    await hydrated(page);
    const events = await settledEvents(page, browserEvents, 1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ level: "warning", contexts: { unsent: { page: `${withDsn.origin}/lazy` } } });
    expect(events[0]?.exception?.values?.at(-1)?.value).toStartWith(
      "Route failed to load after a retry and a full page load: ",
    );
    await context.close();
  });

  test("an error while Sentry is down waits in the browser and arrives exactly once when it is back, after a reload", async () => {
    await ingest.setMode("down");
    const { page, requests } = await visit(withDsn, "/client-error");
    await page.click("text=Throw an error");
    const digest = await page.textContent("main.global-error .digest code");
    // The tunnel answers 502 while its upstream is down: the browser keeps the envelope. Any of the page's
    // posts counts (the session's may have gone before the click, and the error's then waits its turn).
    const refused = new Promise<void>((resolve) => {
      const seen = (r: Request) => {
        if (r.url().endsWith("/monitoring")) void r.response().then((answer) => answer?.status() === 502 && resolve());
      };
      for (const r of requests) seen(r);
      page.on("request", seen);
    });
    await refused;
    // Every envelope of the page has been tried while Sentry was down and written to IndexedDB before the
    // reload; one still on its way when the page unloads would be neither sent nor kept.
    await page.waitForLoadState("networkidle");
    await page.waitForFunction<boolean, QueueState>(offlineQueue, "some", { timeout: 10_000 });
    await ingest.setMode("up");
    await page.reload();
    await hydrated(page);
    // The page's offline queue is sent a few seconds after it starts.
    await ingest.waitFor(() => browserEvents().some((e) => e.tags?.digest === digest), 20_000);
    // Nothing left in the queue, and nothing on its way: no second copy can come.
    await page.waitForFunction<boolean, QueueState>(offlineQueue, "none", { timeout: 10_000 });
    await allSent(page);
    expect(browserEvents().filter((e) => e.tags?.digest === digest)).toHaveLength(1);
    await page.close();
  });
});

describe("loading", () => {
  /** What every page fetches once it is hydrating: the navigation code and the codec it may need. */
  const afterHydration = () => [NAVIGATION_MODULE, CODEC_MODULE].map((m) => `GET /assets/${assets.manifest.chunks[m]}`);
  /** The critical path, then what comes after hydration. */
  const firstVisit = () =>
    [...[assets.manifest.entry, ...assets.manifest.preload].map((f) => `GET /assets/${f}`), ...afterHydration()].sort();
  const scripts = (v: Visit, origin: string) =>
    paths(
      v.requests.filter((r) => r.resourceType() === "script"),
      origin,
    ).sort();

  test("a first visit's critical path is the entry alone, and the page needs nothing else to hydrate", async () => {
    // A fixed expectation, not one read off the manifest: a shared chunk on the critical path fails here. The
    // code the entry shares with the code-split /lazy page is in the entry (which has no top-level await).
    expect(assets.manifest.preload).toEqual([]);
    const home = await visit(withoutDsn, "/");
    await home.page.waitForLoadState("networkidle");
    expect(scripts(home, withoutDsn.origin).filter((s) => !afterHydration().includes(s))).toEqual([
      `GET /assets/${assets.manifest.entry}`,
    ]);
    await home.page.close();
  });

  test("without a DSN no Sentry code is downloaded, even after an error, and nothing is posted", async () => {
    const home = await visit(withoutDsn, "/");
    await home.page.waitForLoadState("networkidle");
    expect(scripts(home, withoutDsn.origin)).toEqual(firstVisit());

    const failing = await visit(withoutDsn, "/client-error");
    await failing.page.click("text=Throw an error");
    await failing.page.waitForSelector("main.global-error");
    await failing.page.waitForLoadState("networkidle");
    expect(scripts(failing, withoutDsn.origin)).toEqual(firstVisit());
    expect(paths(failing.requests, withoutDsn.origin)).not.toContain("POST /monitoring");
    await Promise.all([home.page.close(), failing.page.close()]);
  });

  test("with a DSN the Sentry chunk is the one script beyond those of a page without (tracing off: none of its code)", async () => {
    const home = await visit(withDsn, "/");
    await home.page.waitForLoadState("networkidle");
    expect(scripts(home, withDsn.origin)).toEqual([...firstVisit(), `GET ${sentryChunk}`].sort());
    expect(scripts(home, withDsn.origin)).not.toContain(`GET /assets/${assets.manifest.chunks[TRACING_MODULE]}`);
    await home.page.close();
  });
});
