// Server tracing with the real @sentry/bun and SENTRY_TRACES_SAMPLE_RATE=1, against a fake ingest: page transactions
// named after their route with spans for their steps, nothing for assets, public files, the tunnel, health or page
// data outside a navigation, and the trace handed to the browser in the page and on page data.
import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Event } from "@sentry/core";
import type { ClientAssets } from "../../../src/server/assets/assets.ts";
import { initServerSentry, type ServerMonitoring } from "../../../src/server/monitoring/sentry.ts";
import type { FakeIngest, ServedApp } from "brisk/test";
import { FIXTURE, serveWith, testConfig } from "../../support/app.ts";
import { useServerSentry } from "../../support/sentry-ingest.ts";
import { bootState } from "../../support/page-state.ts";

const sentry = useServerSentry({ SENTRY_TRACES_SAMPLE_RATE: "1" });
let ingest: FakeIngest;
let assets: ClientAssets;
let dataDir: string;
let monitoring: ServerMonitoring;
let t: ServedApp;

beforeAll(async () => {
  ({ ingest, assets, dataDir, monitoring } = sentry());
  t = await serveWith({ ...FIXTURE, env: sentry().env }, sentry().deps);
});

beforeEach(() => ingest.reset());

/** What the ingest has once the SDK has sent everything, sorted into transactions and error events. */
async function sent(): Promise<{ transactions: Event[]; errors: Event[] }> {
  expect(await monitoring.flush(2_000)).toBe(true);
  return { transactions: ingest.items("transaction") as Event[], errors: ingest.events() };
}

const spanOps = (transaction: Event) => (transaction.spans ?? []).map((s) => `${s.op} ${s.description}`).sort();

describe("page transactions", () => {
  test("are named after the route pattern, with source route, and have spans for the loader and the render", async () => {
    const res = await t.request("/search?q=brisk");
    expect(res.status).toBe(200);
    await res.text();
    const { transactions } = await sent();
    expect(transactions).toHaveLength(1);
    const [transaction] = transactions as [Event];
    expect(transaction.transaction).toBe("GET /search");
    expect(transaction.transaction_info?.source).toBe("route");
    expect(transaction.contexts?.trace).toMatchObject({ op: "http.server", status: "ok" });
    expect(spanOps(transaction)).toEqual([
      "function.brisk.loader loader /search",
      "function.brisk.render render /search",
    ]);
    // The request, as on error events.
    expect(transaction.request?.url).toBe("http://localhost/search?q=brisk");
  });

  test("its request's query secrets are masked in the URL and the Referer alike", async () => {
    await (
      await t.request("/search?q=x&email=a%40b.example", {
        headers: { referer: "http://localhost/reset?token=t-secret&sig=s" },
      })
    ).text();
    const { transactions } = await sent();
    expect(transactions[0]?.request?.url).toBe("http://localhost/search?q=x&email=[Filtered]");
    expect(transactions[0]?.request?.headers?.referer).toBe("http://localhost/reset?token=[Filtered]&sig=[Filtered]");
  });

  test("a streamed page's transaction ends after its last section, not with its shell", async () => {
    const started = Date.now();
    await (await t.request("/stream")).text();
    const { transactions } = await sent();
    const [transaction] = transactions as [Event];
    expect(transaction.transaction).toBe("GET /stream");
    // The section streams about 300 ms after the shell.
    expect((transaction.timestamp! - transaction.start_timestamp!) * 1000).toBeGreaterThanOrEqual(280);
    expect(transaction.timestamp! * 1000).toBeGreaterThan(started + 280);
  });

  test("a failing page: its error event is in its transaction's trace, and the transaction ends internal_error", async () => {
    await (await t.request("/server-error")).text();
    const { transactions, errors } = await sent();
    expect(transactions.map((e) => e.transaction)).toEqual(["GET /server-error"]);
    expect(transactions[0]?.contexts?.trace?.status).toBe("internal_error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.contexts?.trace?.trace_id).toBe(transactions[0]!.contexts!.trace!.trace_id!);
  });

  test("a failed render and the error page rendered after it are two spans with different names, the first failed", async () => {
    await (await t.request("/render-error")).text();
    const { transactions } = await sent();
    const spans = (transactions[0]?.spans ?? []).map((s) => [s.op, s.description, s.status]);
    expect(spans).toEqual([
      ["function.brisk.render", "render /render-error", "internal_error"],
      ["function.brisk.fallback", "fallback /render-error", "ok"],
    ]);
  });

  test("two concurrent failing pages are two traces", async () => {
    await Promise.all(["/server-error?n=1", "/server-error?n=2"].map(async (p) => (await t.request(p)).text()));
    const { transactions, errors } = await sent();
    expect(new Set(transactions.map((e) => e.contexts?.trace?.trace_id)).size).toBe(2);
    expect(new Set(errors.map((e) => e.contexts?.trace?.trace_id))).toEqual(
      new Set(transactions.map((e) => e.contexts?.trace?.trace_id)),
    );
  });

  test("an unmatched path is one transaction name for all, GET /*", async () => {
    await (await t.request("/no/such/page")).text();
    const { transactions } = await sent();
    expect(transactions.map((e) => [e.transaction, e.transaction_info?.source])).toEqual([["GET /*", "route"]]);
  });

  test("assets, public files, the tunnel, the health check and page data outside a navigation make none", async () => {
    await (await t.request(`/assets/${assets.manifest.entry}`)).arrayBuffer();
    const file = await t.request("/robots.txt");
    expect(file.status).toBe(200);
    await file.text();
    await (await t.request("/healthz")).text();
    const envelope = `${JSON.stringify({ dsn: ingest.dsn() })}\n{"type":"event"}\n{}\n`;
    await (await t.request("/monitoring", { method: "POST", body: envelope })).text();
    await (await t.request("/__data/search?q=x")).text();
    await (await t.request("/", { method: "HEAD" })).text();
    const { transactions } = await sent();
    expect(transactions).toEqual([]);
  });
});

const SAME_ORIGIN = {
  origin: "http://localhost",
  "sec-fetch-site": "same-origin",
  "content-type": "application/x-www-form-urlencoded",
};
/** What the browser's navigation sends with its page-data request. */
const navigationTrace = (traceId: string) => ({
  "sentry-trace": `${traceId}-0123456789abcdef-1`,
  baggage: `sentry-trace_id=${traceId},sentry-sample_rate=1,sentry-sampled=true`,
});
const kindOf = (transaction: Event | undefined) => transaction?.contexts?.trace?.data?.["brisk.request.kind"];

describe("API transactions", () => {
  test("are named after the Elysia route pattern, with its status, the request and kind api", async () => {
    const res = await t.request("/api/notes/999999?x=1");
    expect(res.status).toBe(404);
    await res.text();
    const { transactions } = await sent();
    expect(transactions).toHaveLength(1);
    const [transaction] = transactions as [Event];
    expect(transaction).toMatchObject({ transaction: "GET /api/notes/:id", transaction_info: { source: "route" } });
    expect(transaction.contexts?.trace).toMatchObject({ op: "http.server", status: "not_found" });
    expect(transaction.contexts?.trace?.data).toMatchObject({
      "brisk.request.kind": "api",
      "http.route": "/api/notes/:id",
    });
    expect(transaction.request?.url).toBe("http://localhost/api/notes/999999?x=1");
  });

  test("a failing API route: its transaction ends internal_error and holds the error event, which names it", async () => {
    await (await t.request("/api/fails")).text();
    const { transactions, errors } = await sent();
    expect(transactions.map((e) => e.transaction)).toEqual(["GET /api/fails"]);
    expect(transactions[0]?.contexts?.trace?.status).toBe("internal_error");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.transaction).toBe("GET /api/fails");
    expect(errors[0]?.contexts?.trace?.trace_id).toBe(transactions[0]!.contexts!.trace!.trace_id!);
  });
});

describe("one name per route", () => {
  test("a document and a navigation's page data are one name, told apart by brisk.request.kind", async () => {
    await (await t.request("/items/1")).text();
    await (await t.request("/__data/items/2", { headers: navigationTrace("11111111111111111111111111111111") })).text();
    const { transactions } = await sent();
    // Sorted: the SDK sends envelopes side by side, so they may reach the ingest in either order.
    expect(transactions.map((e) => [e.transaction, kindOf(e)]).sort()).toEqual([
      ["GET /items/:id", "document"],
      ["GET /items/:id", "page-data"],
    ]);
  });

  test("a document form post and a JavaScript one (page data) are one name; their failures' events carry it too", async () => {
    const post = { method: "POST", body: "text=boom" };
    await (await t.request("/form", { ...post, headers: SAME_ORIGIN })).text();
    await (
      await t.request("/__data/form", {
        ...post,
        headers: { ...SAME_ORIGIN, ...navigationTrace("22222222222222222222222222222222") },
      })
    ).text();
    const { transactions, errors } = await sent();
    expect(transactions.map((e) => [e.transaction, kindOf(e)]).sort()).toEqual([
      ["POST /form", "document"],
      ["POST /form", "page-data"],
    ]);
    expect(errors.map((e) => e.transaction)).toEqual(["POST /form", "POST /form"]);
  });

  test("no transaction or event name holds the page-data prefix, and every error event names its route", async () => {
    const trace = { headers: navigationTrace("33333333333333333333333333333333") };
    for (const path of [
      "/server-error",
      "/render-error",
      "/late-error",
      "/__data/server-error",
      "/__data/search",
      "/__data/no/such/page",
    ]) {
      await (await t.request(path, trace)).text();
    }
    const { transactions, errors } = await sent();
    expect(transactions).toHaveLength(6);
    for (const name of [...transactions, ...errors].map((e) => e.transaction)) expect(name).not.toContain("/__data");
    expect(errors.map((e) => e.transaction).sort()).toEqual([
      "GET /late-error",
      "GET /render-error",
      "GET /server-error",
      "GET /server-error",
    ]);
  });
});

describe("the trace handed to the browser", () => {
  test("the page's boot state, in its nonce'd script, carries sentry-trace and baggage of the page's transaction", async () => {
    const html = await (await t.request("/")).text();
    const state = bootState(html) as { trace?: { "sentry-trace": string; baggage?: string } };
    expect(state.trace?.["sentry-trace"]).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}-1$/);
    expect(state.trace?.baggage).toContain("sentry-trace_id=");
    expect(html).toMatch(/<script nonce="[^"]+"[^>]*>window\.__BRISK__=/);
    const { transactions } = await sent();
    const traceId = state.trace!["sentry-trace"].split("-")[0];
    expect(transactions[0]?.contexts?.trace?.trace_id).toBe(traceId!);
    // The browser's spans hang under the page's transaction.
    expect(transactions[0]?.contexts?.trace?.span_id).toBe(state.trace!["sentry-trace"].split("-")[1]!);
  });

  test("page data sent with a navigation's trace: a transaction of that trace named after the route, and trace headers on the answer", async () => {
    const traceId = "0123456789abcdef0123456789abcdef";
    const res = await t.request("/__data/search?q=x", {
      headers: {
        "sentry-trace": `${traceId}-0123456789abcdef-1`,
        baggage: `sentry-trace_id=${traceId},sentry-sample_rate=1,sentry-sampled=true`,
      },
    });
    await res.text();
    expect(res.headers.get("sentry-trace")).toStartWith(`${traceId}-`);
    expect(res.headers.get("baggage")).toContain(`sentry-trace_id=${traceId}`);
    const { transactions } = await sent();
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toMatchObject({ transaction: "GET /search", transaction_info: { source: "route" } });
    expect(transactions[0]?.contexts?.trace?.data).toMatchObject({ "brisk.request.kind": "page-data" });
    expect(transactions[0]?.contexts?.trace).toMatchObject({ trace_id: traceId, parent_span_id: "0123456789abcdef" });
  });

  test("without tracing the page carries no trace", async () => {
    const untraced = await serveWith(
      { ...FIXTURE, env: { SENTRY_DSN: ingest.dsn(), DATA_DIR: dataDir } },
      { capture: monitoring.capture },
    );
    const html = await (await untraced.request("/")).text();
    expect(bootState(html).trace).toBeUndefined();
  });
});

describe("a page not sampled (SENTRY_TRACES_SAMPLE_RATE=0)", () => {
  beforeAll(async () => {
    await monitoring.close(2_000);
    const env = { SENTRY_DSN: ingest.dsn(), SENTRY_TRACES_SAMPLE_RATE: "0", DATA_DIR: dataDir };
    monitoring = initServerSentry(testConfig(env), assets.manifest.buildId, { log: () => {} })!;
    t = await serveWith({ ...FIXTURE, env }, { capture: monitoring.capture, monitor: monitoring.monitor });
  });

  test("sends no transaction, and its page tells the browser the trace is not sampled", async () => {
    const html = await (await t.request("/search?q=x")).text();
    const state = bootState(html) as { trace?: { "sentry-trace": string; baggage?: string } };
    expect(state.trace?.["sentry-trace"]).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}-0$/);
    const { transactions } = await sent();
    expect(transactions).toEqual([]);
  });

  test("its errors still carry the page's trace id", async () => {
    const html = await (await t.request("/server-error")).text();
    expect(html).toContain("Digest:");
    const { errors } = await sent();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.contexts?.trace?.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });

  test("page data continuing a sampled navigation is traced all the same", async () => {
    const traceId = "fedcba9876543210fedcba9876543210";
    await (
      await t.request("/__data/search?q=x", { headers: { "sentry-trace": `${traceId}-0123456789abcdef-1` } })
    ).text();
    const { transactions } = await sent();
    expect(transactions.map((e) => [e.transaction, e.contexts?.trace?.trace_id])).toEqual([["GET /search", traceId]]);
  });
});
