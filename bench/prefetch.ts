// prefetch.ts: `NODE_ENV=production bun bench/prefetch.ts`: what `<Link prefetch="intent">` saves. The example app's
// home page in Chromium with 300 ms of emulated latency on every request (DevTools protocol network emulation):
// click → content of an example link, once after hovering it (its data and code loaded ahead) and once as a bare
// click (no hover, so nothing ahead), each in a fresh context (an empty cache), alternating.
//
// PREFETCH_RUNS: clicks per link and mode (5).
import type { Browser, Page } from "playwright-core";
import { hydrated, launchBrowser, listenApp } from "brisk/test";
import { htmlModules } from "./lib/client-weight.ts";
import { median, round } from "./lib/stats.ts";

const RUNS = Number(Bun.env.PREFETCH_RUNS ?? 5);
const LATENCY_MS = 300;
/** Example links of the home page, and the heading their page shows. */
const TARGETS = [
  { href: "/examples/types", heading: "Data on the wire" },
  { href: "/examples/search?q=brisk", heading: "Search" },
  { href: "/examples/lazy", heading: "Code-split route" },
] as const;

type Mode = "prefetched" | "bare";

/** The home page in a fresh context, 300 ms from the server, hydrated with its navigation code loaded. */
async function home(browser: Browser, origin: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.goto(`${origin}/`);
  await hydrated(page);
  await page.waitForLoadState("networkidle");
  return page;
}

/** Milliseconds from the click to the target's heading in the page, timed inside the page. */
function timedClick(page: Page, href: string, heading: string): Promise<number> {
  return page.evaluate(
    ({ href, heading }) =>
      new Promise<number>((resolve) => {
        const shown = () => document.querySelector("h1")?.textContent === heading;
        const start = performance.now();
        new MutationObserver((_, observer) => {
          if (!shown()) return;
          observer.disconnect();
          resolve(performance.now() - start);
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
        document.querySelector<HTMLAnchorElement>(`ul.examples a[href="${href}"]`)!.click();
      }),
    { href, heading },
  );
}

/** The chunks and stylesheets of a page, as its document links them: what its page data names too. */
async function codeOf(origin: string, href: string): Promise<string[]> {
  const html = await (await fetch(origin + href)).text();
  const stylesheets = [...html.matchAll(/<link\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => /\srel="stylesheet"/.test(tag));
  return [...htmlModules(html), ...stylesheets.map((tag) => /\shref="([^"]*)"/.exec(tag)![1]!)];
}

async function clickOnce(
  browser: Browser,
  origin: string,
  target: (typeof TARGETS)[number],
  mode: Mode,
): Promise<number> {
  const page = await home(browser, origin);
  try {
    if (mode === "prefetched") {
      const link = page.locator(`ul.examples a[href="${target.href}"]`);
      await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/__data${target.href}`)), link.hover()]);
      // Its chunks and stylesheets too: each fetched in full.
      await page.waitForFunction(
        (hrefs) =>
          hrefs.every((href) =>
            performance
              .getEntriesByName(new URL(href, location.href).href)
              .some((e) => (e as PerformanceResourceTiming).responseEnd > 0),
          ),
        await codeOf(origin, target.href),
      );
    }
    return await timedClick(page, target.href, target.heading);
  } finally {
    await page.context().close();
  }
}

const served = await listenApp();
const browser = await launchBrowser();
try {
  console.log(
    `click → content, ${LATENCY_MS} ms emulated latency, ${RUNS} clicks per link and mode (median, min–max):`,
  );
  for (const target of TARGETS) {
    const times: Record<Mode, number[]> = { prefetched: [], bare: [] };
    for (let run = 0; run < RUNS; run++) {
      for (const mode of ["prefetched", "bare"] as const)
        times[mode].push(await clickOnce(browser, served.origin, target, mode));
    }
    const line = (mode: Mode) =>
      `${mode} ${round(median(times[mode]))} ms (${round(Math.min(...times[mode]))}–${round(Math.max(...times[mode]))})`;
    console.log(`${target.href}: ${line("prefetched")}; ${line("bare")}`);
  }
} finally {
  await browser.close();
  await served.stop();
}
