// visitor.ts: what a visitor waits for: cold loads of a page in headless Chromium (FCP, LCP, hydration,
// DOMContentLoaded, bytes on the wire, long tasks), unthrottled and with 4× CPU + Fast 3G set through the
// DevTools protocol. Servers take turns, one load at a time, each in a fresh context (empty cache).
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

export interface VisitorResult {
  server: string;
  throttled: boolean;
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

async function coldLoad(browser: Browser, target: VisitorTarget, path: string, throttled: boolean): Promise<Load> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE);
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
export async function measureVisitors(targets: VisitorTarget[], path: string, runs: number): Promise<VisitorResult[]> {
  const browser = await launchBrowser();
  try {
    const results: VisitorResult[] = [];
    for (const throttled of [false, true]) {
      const byTarget = targets.map((t) => ({ server: t.name, throttled, loads: [] as Load[] }));
      for (let i = -1; i < runs; i++) {
        for (const [k, target] of targets.entries()) {
          const load = await coldLoad(browser, target, path, throttled);
          if (i >= 0) byTarget[k]!.loads.push(load);
        }
      }
      results.push(...byTarget);
    }
    return results;
  } finally {
    await browser.close();
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
