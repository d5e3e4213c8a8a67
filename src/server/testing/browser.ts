// browser.ts (brisk/test): Debian's Chromium driven by playwright-core, and what a test watches on a page.
import type { Browser, Page } from "playwright-core";

/** The Chromium launchBrowser starts unless told another: `CHROMIUM_PATH`, else Debian's. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's Chromium, or the one `CHROMIUM_PATH` or `executablePath` names. */
export async function launchBrowser({ executablePath = CHROMIUM }: { executablePath?: string } = {}): Promise<Browser> {
  // Loaded here, not with brisk/test: it costs most of a second, which tests without a browser never pay.
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      // Without these, Chromium reaches for Google's hosts at start, which this network refuses.
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface PageWatch {
  /** console errors and warnings, and uncaught page errors. */
  problems: string[];
  /** Every document (full page) request the page made. */
  documents: string[];
}

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { problems: [], documents: [] };
  // Every CSP violation becomes a console error, so a test that wants no problems fails on one.
  void page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(
        `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`,
      ),
    ),
  );
  page.on("console", (m) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    // Chromium logs a document's own 4xx/5xx status, and page data's (a 422 after an invalid form post, a
    // 404 page's data): for outcome, error and validation responses that status is the point.
    const url = m.location().url;
    if (
      m.text().startsWith("Failed to load resource") &&
      (watch.documents.includes(url) || new URL(url, "http://x").pathname.startsWith("/__data/"))
    )
      return;
    watch.problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => watch.problems.push(`pageerror: ${e.message}`));
  page.on("request", (r) => {
    if (r.resourceType() === "document") watch.documents.push(r.url());
  });
  return watch;
}

/** Resolves once React has hydrated the document (the root marks it). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}
