// visitor.ts: what a visitor waits for: cold loads of a page in headless Chromium (the document's first and last
// bytes, FCP, LCP, DOMContentLoaded, hydration, bytes on the wire, long tasks and total blocking time), unthrottled
// and with a CPU slowdown and a network profile set through the DevTools protocol. Servers take turns, one load at
// a time, each in a fresh context (empty cache).
//
// A visitor arrives from somewhere: each load starts on a page of another site (127.0.0.2) and navigates
// from there, as from a link, a search result or the browser's own new-tab page. A load from the blank
// document of a fresh tab is measured too (unthrottled): there Chromium may keep the tab's first process for
// a page, but must start a new one for a page that sends Cross-Origin-Opener-Policy (Brisk's documents do),
// which costs that row ~170 ms on this VM and nothing in the others.
import type { Browser, CDPSession, Page } from "playwright-core";
import { launchBrowser } from "brisk/test";
import { within } from "../../test/support/until.ts";
import { median } from "./stats.ts";

export interface VisitorTarget {
  name: string;
  origin: string;
  /** Whether its page hydrates (marks `data-hydrated`): the raw reference's does not run Brisk's boot. */
  hydrates: boolean;
}

export interface Load {
  /**
   * The document's first and last bytes, from the navigation's start, as DevTools saw them arrive (its headers,
   * its last byte off the emulated network): Navigation Timing's responseStart leaves the emulated latency out.
   */
  responseStartMs: number;
  responseEndMs: number;
  /** The last byte of the page's first script (its entry), on the same clock: before or after the first paint. */
  entryEndMs?: number;
  fcpMs: number;
  lcpMs: number;
  dclMs: number;
  hydratedMs?: number;
  /** Every response's bytes on the wire (headers included), and the document's alone. */
  bytes: number;
  documentBytes: number;
  longTasks: number;
  longTaskMs: number;
  /** Total blocking time: see `blockingTime`. */
  tbtMs: number;
}

/** Where the load starts: a page of another site, or the blank document of a fresh tab. */
export type Arrival = "from another site" | "from a fresh tab";

/** A slower visitor: Chromium's CPU slowed down and its network emulated. */
export interface Throttle {
  name: string;
  cpuSlowdown: number;
  network: { offline: false; latency: number; downloadThroughput: number; uploadThroughput: number };
}

/** Chromium DevTools' "Fast 3G" preset (latency and throughput as DevTools sets them), with 4× CPU. */
export const FAST_3G: Throttle = {
  name: "4× CPU, Fast 3G",
  cpuSlowdown: 4,
  network: { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 },
};

/** Lighthouse's mobile figures as issue 22 gives them: 4× CPU, 150 ms round trip, 1.6 Mbit/s down (750 kbit/s up). */
export const SLOW_4G: Throttle = {
  name: "4× CPU, 150 ms, 1.6 Mbit/s",
  cpuSlowdown: 4,
  network: { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 },
};

/** One row of loads: a page, how the visitor arrives, and how slow its machine and network are. */
export interface VisitorCondition {
  path: string;
  arrival: Arrival;
  throttle?: Throttle;
}

export interface VisitorResult extends VisitorCondition {
  server: string;
  loads: Load[];
}

interface LongTask {
  start: number;
  duration: number;
}

/**
 * Lighthouse's total blocking time: for each long task, the part of it after FCP beyond 50 ms, summed. Lighthouse
 * stops at Time to Interactive; here the window runs to the end of the load (hydration and a quiet second
 * after it), which holds the same tasks unless one comes after TTI's quiet window.
 */
export function blockingTime(tasks: readonly LongTask[], fcp: number): number {
  let sum = 0;
  for (const { start, duration } of tasks) {
    const end = start + duration;
    if (end <= fcp) continue;
    sum += Math.max(0, end - Math.max(start, fcp) - 50);
  }
  return sum;
}

/** Observers in place before the page's own code: LCP, long tasks and the moment React marks hydration. */
const OBSERVE = () => {
  const v = { lcp: 0, longTasks: [] as Array<{ start: number; duration: number }>, hydrated: -1 };
  (window as unknown as { __visitor: typeof v }).__visitor = v;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) v.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) v.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  new MutationObserver(() => {
    if (v.hydrated < 0 && document.documentElement?.dataset.hydrated === "true") v.hydrated = performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
};

/**
 * The document's and the entry's arrival as DevTools reports them: its events carry the browser's monotonic clock,
 * and the document's request also the wall time it left at, which puts them on the page's own timeline.
 */
function watchNetwork(cdp: CDPSession) {
  const sizes = new Map<string, number>();
  const finished = new Map<string, number>();
  let document: { id: string; timestamp: number; wallTime: number; headers?: number } | undefined;
  let entryId: string | undefined;
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.type === "Document") document ??= { id: e.requestId, timestamp: e.timestamp, wallTime: e.wallTime };
    else if (e.type === "Script") entryId ??= e.requestId;
  });
  cdp.on("Network.responseReceived", (e) => {
    if (e.requestId === document?.id) document.headers = e.timestamp;
  });
  cdp.on("Network.loadingFinished", (e) => {
    sizes.set(e.requestId, e.encodedDataLength);
    finished.set(e.requestId, e.timestamp);
  });
  /** Given the page's `performance.timeOrigin`: the figures in ms from the navigation's start. */
  return (timeOrigin: number) => {
    if (!document?.headers) throw new Error("DevTools reported no document response");
    const { id, timestamp, wallTime } = document;
    const onPage = (at: number) => (wallTime + at - timestamp) * 1000 - timeOrigin;
    const entryEnd = entryId === undefined ? undefined : finished.get(entryId);
    return {
      responseStartMs: onPage(document.headers),
      responseEndMs: onPage(finished.get(id) ?? Number.NaN),
      entryEndMs: entryEnd === undefined ? undefined : onPage(entryEnd),
      bytes: [...sizes.values()].reduce((a, b) => a + b, 0),
      documentBytes: sizes.get(id) ?? 0,
    };
  };
}

/**
 * Watches for the page's first contentful paint through DevTools' lifecycle events, so that nothing runs in the
 * page to ask; call before the navigation. Returns the wait for it.
 */
export async function watchFirstPaint(cdp: CDPSession): Promise<() => Promise<void>> {
  await cdp.send("Page.enable");
  await cdp.send("Page.setLifecycleEventsEnabled", { enabled: true });
  const painted = new Promise<void>((resolve) => {
    cdp.on("Page.lifecycleEvent", (e) => {
      if (e.name === "firstContentfulPaint") resolve();
    });
  });
  return () => within(painted, "the first contentful paint", 30_000);
}

/** Chromium's processes, all of them: the browser, its renderers, the GPU and network services. */
async function chromiumCpuSeconds(browserSession: CDPSession): Promise<number> {
  const { processInfo } = await browserSession.send("SystemInfo.getProcessInfo");
  return processInfo.reduce((sum, p) => sum + p.cpuTime, 0);
}

/**
 * Resolves once Chromium has used at most a tick of CPU (10 ms) over `windowMs`: a new context starts a renderer
 * for the omnibox's WebUI popup, ~0.7 s of CPU, which would otherwise run during the measured load, on the core
 * the page has (the bench pins itself and Chromium to one). A visitor's browser did that when its window opened.
 */
async function untilQuiet(browserSession: CDPSession, windowMs = 200, timeoutMs = 15_000): Promise<void> {
  const start = performance.now();
  const samples = [await chromiumCpuSeconds(browserSession)];
  const steps = windowMs / 50;
  while (performance.now() - start < timeoutMs) {
    await Bun.sleep(50);
    samples.push(await chromiumCpuSeconds(browserSession));
    if (samples.length > steps && samples.at(-1)! - samples.at(-1 - steps)! <= 0.01) return;
  }
  throw new Error(`Chromium was still busy ${timeoutMs} ms after the load began`);
}

/**
 * A fresh context's page made ready for a cold load: on the other site's page (`from`), the browser quiet, and its
 * DevTools session with the cache off and the throttle set.
 */
export async function readyToLoad(
  page: Page,
  browserSession: CDPSession,
  from: string | undefined,
  throttle: Throttle | undefined,
): Promise<CDPSession> {
  // Before the DevTools session: the other site's page is not part of the load.
  if (from) await page.goto(from);
  await untilQuiet(browserSession);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  if (throttle) {
    await cdp.send("Network.emulateNetworkConditions", throttle.network);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle.cpuSlowdown });
  }
  return cdp;
}

async function coldLoad(
  browser: Browser,
  browserSession: CDPSession,
  target: VisitorTarget,
  condition: VisitorCondition,
  from: string | undefined,
): Promise<Load> {
  const { path, throttle } = condition;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE);
    const cdp = await readyToLoad(page, browserSession, from, throttle);
    const network = watchNetwork(cdp);
    const painted = await watchFirstPaint(cdp);
    await page.goto(target.origin + path, { waitUntil: "load" });
    // Playwright's waits run script in the page, which must not land ahead of the paint: a page whose scripts
    // run after it (Brisk's) has its load event first, and the probe's ~10 ms of script (×4 throttled) then
    // delayed the very paint it was waiting to measure.
    await painted();
    if (target.hydrates)
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, {
        timeout: 30_000,
      });
    // Late LCP candidates and the long tasks of hydration's effects land within this.
    await Bun.sleep(throttle ? 1_000 : 300);
    const m = await page.evaluate(() => {
      const v = (window as unknown as { __visitor: { lcp: number; longTasks: LongTask[]; hydrated: number } })
        .__visitor;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1;
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return { ...v, fcp, dcl: nav.domContentLoadedEventEnd, timeOrigin: performance.timeOrigin };
    });
    return {
      ...network(m.timeOrigin),
      fcpMs: m.fcp,
      lcpMs: m.lcp,
      dclMs: m.dcl,
      hydratedMs: m.hydrated >= 0 ? m.hydrated : undefined,
      longTasks: m.longTasks.length,
      longTaskMs: m.longTasks.reduce((sum, t) => sum + t.duration, 0),
      tbtMs: blockingTime(m.longTasks, m.fcp),
    };
  } finally {
    await context.close();
  }
}

/** The prerendered `/`'s rows: unthrottled and 4× CPU + Fast 3G from another site, and unthrottled from a fresh tab. */
export function homeConditions(path: string): VisitorCondition[] {
  return [
    { path, arrival: "from another site" },
    { path, arrival: "from another site", throttle: FAST_3G },
    { path, arrival: "from a fresh tab" },
  ];
}

/** A page rendered per request, as issue 22 measures it: from another site, unthrottled and on SLOW_4G. */
export function perRequestConditions(path: string): VisitorCondition[] {
  return [
    { path, arrival: "from another site" },
    { path, arrival: "from another site", throttle: SLOW_4G },
  ];
}

/** Requests of the page a fresh server answers before its visitors come: a deploy's health checks and first few. */
export const FRESH_WARM_REQUESTS = 5;

/**
 * The servers to load: the same ones throughout, each warmed by an unrecorded load per condition; or a function
 * that starts them anew, called before each condition, and then warmed by FRESH_WARM_REQUESTS plain requests of
 * its page only: what a visitor meets soon after a deploy.
 */
export type VisitorServers = VisitorTarget[] | (() => Promise<VisitorTarget[]>);

async function warm(target: VisitorTarget, path: string): Promise<void> {
  for (let i = 0; i < FRESH_WARM_REQUESTS; i++) {
    const res = await fetch(target.origin + path);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${target.name} answered ${path} with ${res.status}`);
  }
}

/** `runs` cold loads per server and condition, the servers taking turns. */
export async function measureVisitors(
  targets: VisitorServers,
  conditions: readonly VisitorCondition[],
  runs: number,
): Promise<VisitorResult[]> {
  const browser = await launchBrowser();
  const browserSession = await browser.newBrowserCDPSession();
  // The other site: another loopback address is another site to Chromium.
  const elsewhere = Bun.serve({
    hostname: "127.0.0.2",
    port: 0,
    fetch: () =>
      new Response('<!doctype html><title>Elsewhere</title><a href="#">a link</a>', {
        headers: { "content-type": "text/html" },
      }),
  });
  try {
    const results: VisitorResult[] = [];
    for (const condition of conditions) {
      const from = condition.arrival === "from another site" ? elsewhere.url.href : undefined;
      const fresh = typeof targets === "function";
      const servers = fresh ? await targets() : targets;
      if (fresh) for (const target of servers) await warm(target, condition.path);
      const byTarget = servers.map((t): VisitorResult => ({ ...condition, server: t.name, loads: [] }));
      for (let i = fresh ? 0 : -1; i < runs; i++) {
        for (const [k, target] of servers.entries()) {
          const load = await coldLoad(browser, browserSession, target, condition, from);
          if (i >= 0) byTarget[k]!.loads.push(load);
        }
      }
      results.push(...byTarget);
    }
    return results;
  } finally {
    await browser.close();
    await elsewhere.stop(true);
  }
}

/** The median of each figure over a result's loads. */
export function medians(r: VisitorResult) {
  const of = (pick: (l: Load) => number | undefined) => {
    const values = r.loads.map(pick).filter((x): x is number => x !== undefined);
    return values.length ? median(values) : undefined;
  };
  return {
    responseStartMs: of((l) => l.responseStartMs),
    responseEndMs: of((l) => l.responseEndMs),
    entryEndMs: of((l) => l.entryEndMs),
    fcpMs: of((l) => l.fcpMs),
    lcpMs: of((l) => l.lcpMs),
    dclMs: of((l) => l.dclMs),
    hydratedMs: of((l) => l.hydratedMs),
    bytes: of((l) => l.bytes),
    documentBytes: of((l) => l.documentBytes),
    longTasks: of((l) => l.longTasks),
    longTaskMs: of((l) => l.longTaskMs),
    tbtMs: of((l) => l.tbtMs),
  };
}
