// visitor.ts: what a visitor waits for: cold loads of a page in headless Chromium (FCP, LCP, hydration,
// DOMContentLoaded, bytes on the wire, long tasks), unthrottled and with 4× CPU + Fast 3G set through the
// DevTools protocol. Servers take turns, one load at a time, each in a fresh context (empty cache).
//
// A visitor arrives from somewhere: each load starts on a page of another site (127.0.0.2) and navigates
// from there, as from a link, a search result or the browser's own new-tab page. A load from the blank
// document of a fresh tab is measured too (unthrottled): there Chromium may keep the tab's first process for
// a page, but must start a new one for a page that sends Cross-Origin-Opener-Policy (Brisk's documents do),
// which costs that row ~170 ms on this VM and nothing in the others.
import type { Browser } from "playwright-core";
import { launchBrowser } from "../../test/support/browser.ts";
import { median } from "./stats.ts";

export interface VisitorTarget {
  name: string;
  origin: string;
  /** Whether its page hydrates (marks `data-hydrated`): the raw reference's does not run Brisk's boot. */
  hydrates: boolean;
}

export interface Load {
  fcpMs: number;
  lcpMs: number;
  dclMs: number;
  hydratedMs?: number;
  /** Every response's bytes on the wire (headers included), and the document's alone. */
  bytes: number;
  documentBytes: number;
  longTasks: number;
  longTaskMs: number;
}

/** Where the load starts: a page of another site, or the blank document of a fresh tab. */
export type Arrival = "from another site" | "from a fresh tab";

export interface VisitorResult {
  server: string;
  throttled: boolean;
  arrival: Arrival;
  loads: Load[];
}

/** Chromium DevTools' "Fast 3G" preset (latency and throughput as DevTools sets them). */
export const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 } as const;
export const CPU_SLOWDOWN = 4;

/** Observers in place before the page's own code: LCP, long tasks and the moment React marks hydration. */
const OBSERVE = () => {
  const v = { lcp: 0, longTasks: 0, longTaskMs: 0, hydrated: -1 };
  (window as unknown as { __visitor: typeof v }).__visitor = v;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) v.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) (v.longTasks++, (v.longTaskMs += e.duration));
  }).observe({ type: "longtask", buffered: true });
  new MutationObserver(() => {
    if (v.hydrated < 0 && document.documentElement?.dataset.hydrated === "true") v.hydrated = performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
};

async function coldLoad(browser: Browser, target: VisitorTarget, path: string, throttled: boolean, from: string | undefined): Promise<Load> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE);
    // Before the DevTools session: the other site's page is not part of the load.
    if (from) await page.goto(from);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    if (throttled) {
      await cdp.send("Network.emulateNetworkConditions", FAST_3G);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    }
    const sizes = new Map<string, number>();
    let documentId: string | undefined;
    cdp.on("Network.responseReceived", (e) => {
      if (e.type === "Document") documentId ??= e.requestId;
    });
    cdp.on("Network.loadingFinished", (e) => void sizes.set(e.requestId, e.encodedDataLength));
    await page.goto(target.origin + path, { waitUntil: "load" });
    if (target.hydrates) await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true", undefined, { timeout: 30_000 });
    // Late LCP candidates and the long tasks of hydration's effects land within this.
    await Bun.sleep(throttled ? 1_000 : 300);
    const m = await page.evaluate(() => {
      const v = (window as unknown as { __visitor: { lcp: number; longTasks: number; longTaskMs: number; hydrated: number } }).__visitor;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1;
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return { ...v, fcp, dcl: nav.domContentLoadedEventEnd };
    });
    const documentBytes = documentId ? (sizes.get(documentId) ?? 0) : 0;
    return {
      fcpMs: m.fcp,
      lcpMs: m.lcp,
      dclMs: m.dcl,
      hydratedMs: m.hydrated >= 0 ? m.hydrated : undefined,
      bytes: [...sizes.values()].reduce((a, b) => a + b, 0),
      documentBytes,
      longTasks: m.longTasks,
      longTaskMs: m.longTaskMs,
    };
  } finally {
    await context.close();
  }
}

/** `runs` cold loads of `path` per target and condition, after one unrecorded load each. */
const CONDITIONS: ReadonlyArray<{ throttled: boolean; arrival: Arrival }> = [
  { throttled: false, arrival: "from another site" },
  { throttled: true, arrival: "from another site" },
  { throttled: false, arrival: "from a fresh tab" },
];

export async function measureVisitors(targets: VisitorTarget[], path: string, runs: number): Promise<VisitorResult[]> {
  const browser = await launchBrowser();
  // The other site: another loopback address is another site to Chromium.
  const elsewhere = Bun.serve({
    hostname: "127.0.0.2",
    port: 0,
    fetch: () => new Response('<!doctype html><title>Elsewhere</title><a href="#">a link</a>', { headers: { "content-type": "text/html" } }),
  });
  try {
    const results: VisitorResult[] = [];
    for (const { throttled, arrival } of CONDITIONS) {
      const from = arrival === "from another site" ? elsewhere.url.href : undefined;
      const byTarget = targets.map((t) => ({ server: t.name, throttled, arrival, loads: [] as Load[] }));
      for (let i = -1; i < runs; i++) {
        for (const [k, target] of targets.entries()) {
          const load = await coldLoad(browser, target, path, throttled, from);
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
    fcpMs: of((l) => l.fcpMs),
    lcpMs: of((l) => l.lcpMs),
    dclMs: of((l) => l.dclMs),
    hydratedMs: of((l) => l.hydratedMs),
    bytes: of((l) => l.bytes),
    documentBytes: of((l) => l.documentBytes),
    longTasks: of((l) => l.longTasks),
    longTaskMs: of((l) => l.longTaskMs),
  };
}
