// Tracing across both sides in Chromium, SENTRY_TRACES_SAMPLE_RATE=1, against a fake ingest: the browser's pageload
// continues the server's page transaction, a navigation's page data is part of its trace, and both sides name
// their transactions after the route pattern. On the fixture app (test/fixtures/app).
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import type { Event } from "@sentry/core";
import type { Browser } from "playwright-core";
import { TRACING_MODULE } from "../../src/server/assets/manifest.ts";
import { type ServerMonitoring } from "../../src/server/monitoring/sentry.ts";
import { hydrated, launchBrowser, type FakeIngest, type ListeningApp } from "brisk/test";
import { clientAssets, FIXTURE, listenWith } from "../support/app.ts";
import { useServerSentry } from "../support/sentry-ingest.ts";

const sentry = useServerSentry({ SENTRY_TRACES_SAMPLE_RATE: "1" }, "production");
let ingest: FakeIngest;
let monitoring: ServerMonitoring;
let server: ListeningApp;
let browser: Browser;

beforeAll(async () => {
  ({ ingest, monitoring } = sentry());
  server = await listenWith({ ...FIXTURE, env: sentry().env }, sentry().deps);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

beforeEach(() => ingest.reset());

const transactions = () => ingest.items("transaction") as Event[];
const fromBrowser = (op: string) =>
  transactions()
    .filter((t) => t.sdk?.name === "sentry.javascript.react" || t.sdk?.name === "sentry.javascript.browser")
    .filter((t) => t.contexts?.trace?.op === op);
const fromServer = () => transactions().filter((t) => t.sdk?.name === "sentry.javascript.bun");

/** The browser's transactions of `op`, once one has arrived. */
async function fromBrowserOnce(op: string, timeoutMs = 20_000): Promise<Event[]> {
  await ingest
    .waitFor(() => fromBrowser(op).length > 0, timeoutMs)
    .catch((error: Error) => {
      const seen = transactions().map((t) => [t.sdk?.name, t.contexts?.trace?.op, t.transaction]);
      throw new Error(`no ${op} within ${timeoutMs} ms; transactions: ${JSON.stringify(seen)}`, { cause: error });
    });
  return fromBrowser(op);
}

test("the browser's pageload continues the server's page transaction, both named after the route", async () => {
  const page = await browser.newPage();
  const tracingScript = `/assets/${(await clientAssets("production")).manifest.chunks[TRACING_MODULE]}`;
  // The tracing bundle is loaded here, with tracing on.
  const tracingLoaded = page.waitForRequest((r) => new URL(r.url()).pathname === tracingScript, { timeout: 20_000 });
  await page.goto(`${server.origin}/search?q=brisk`);
  await hydrated(page);
  await tracingLoaded;
  // A pageload ends, and is sent, once the page has been idle for a second.
  const [pageload] = await fromBrowserOnce("pageload");
  await page.close();
  await monitoring.flush(2_000);
  const [document] = fromServer().filter((t) => t.transaction === "GET /search");
  expect(pageload).toMatchObject({ transaction: "/search", transaction_info: { source: "route" } });
  expect(document).toMatchObject({ transaction_info: { source: "route" } });
  expect(pageload!.contexts?.trace?.trace_id).toBe(document!.contexts!.trace!.trace_id!);
  expect(pageload!.contexts?.trace?.parent_span_id).toBe(document!.contexts!.trace!.span_id!);
  // Assets and the tunnel made no server transaction.
  expect(fromServer().map((t) => t.transaction)).toEqual(["GET /search"]);
});

test("a navigation is named after its route, and its page-data request is a server transaction in its trace", async () => {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/`);
  await hydrated(page);
  // Tracing has started once the pageload has been sent or is under way; the network then goes quiet.
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() =>
    performance.getEntriesByType("resource").some((e) => e.name.includes("/assets/browser-tracing-")),
  );
  await page.click('a[href="/search?q=brisk"]');
  await page.waitForURL(`${server.origin}/search?q=brisk`);
  const [navigation] = await fromBrowserOnce("navigation");
  await page.close();
  await monitoring.flush(2_000);
  expect(navigation).toMatchObject({ transaction: "/search", transaction_info: { source: "route" } });
  // The route's one name; the attribute says it answered page data.
  const data = fromServer().find(
    (t) => t.transaction === "GET /search" && t.contexts?.trace?.data?.["brisk.request.kind"] === "page-data",
  );
  expect(data?.transaction_info?.source).toBe("route");
  expect(fromServer().filter((t) => t.transaction?.includes("/__data"))).toEqual([]);
  expect(data?.contexts?.trace?.trace_id).toBe(navigation!.contexts!.trace!.trace_id!);
});
