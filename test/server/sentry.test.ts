// Server events from the real @sentry/bun, sent to a fake ingest: each failure once, tagged with the digest
// the visitor sees; outcomes and disconnects never. Sentry.init is global to the process: this file inits it
// once, after the tests that need it off, and closes it at the end.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import * as Sentry from "@sentry/bun";
import type { Event } from "@sentry/core";
import type { ClientAssets } from "../../src/brisk/server/assets.ts";
import { initServerSentry, type ServerMonitoring } from "../../src/brisk/server/sentry.ts";
import { clientAssets, logFor, testApp, testConfig, type TestApp } from "../support/app.ts";
import { startFakeIngest, type FakeIngest } from "../support/fake-ingest.ts";

let ingest: FakeIngest;
let assets: ClientAssets;

beforeAll(async () => {
  ingest = await startFakeIngest();
  assets = await clientAssets();
});

afterAll(async () => {
  await ingest?.stop();
});

const digestIn = (html: string) => /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)?.[1];
const lateDigestIn = (html: string) => /"error":\{"digest":"([0-9a-z]{10})","side":"server"\}/.exec(html)?.[1];

const FAILING = ["/server-error", "/render-error", "/late-error", "/__data/server-error"];
const OUTCOMES = [
  "/redirect",
  "/not-found",
  "/forbidden",
  "/unauthorized",
  "/late-not-found",
  "/no/such/page",
  "/__data/redirect",
  "/__data/not-found",
  "/__data/forbidden",
  "/__data/unauthorized",
];

describe("without SENTRY_DSN", () => {
  test("no Sentry client starts, error pages keep their digests, and the ingest receives nothing", async () => {
    const before = Sentry.getClient();
    // The tunnel may forward to the ingest (SENTRY_TUNNEL_DSNS), so the ingest is reachable: it must still hear nothing.
    const env = { SENTRY_TUNNEL_DSNS: ingest.dsn() };
    expect(initServerSentry(testConfig(env), assets.manifest.buildId)).toBeUndefined();
    expect(Sentry.getClient()).toBe(before);
    const t = await testApp(env);
    for (const path of [...FAILING, ...OUTCOMES]) await (await t.request(path)).text();
    const html = await (await t.request("/server-error")).text();
    expect(digestIn(html)).toMatch(/^[0-9a-z]{10}$/);
    // The browser is not told to start Sentry either.
    expect(html).not.toContain('"sentry":');
    await Bun.sleep(200);
    expect(ingest.received).toEqual([]);
  });
});

describe("a DSN with a secret", () => {
  test("the page gets the public key only, and the tunnel still takes the browser's envelopes for it", async () => {
    const secretDsn = ingest.dsn().replace("publickey@", "publickey:topsecret@");
    const t = await testApp({ SENTRY_DSN: secretDsn });
    const html = await (await t.request("/")).text();
    expect(html).not.toContain("topsecret");
    const config = JSON.parse(/window\.__BRISK__=(\{.*?\});B\.settle/s.exec(html)![1]!).config;
    expect(config.sentry.dsn).toBe(ingest.dsn());
    // What the browser SDK puts in its envelope header: the DSN it was given.
    const envelope = `${JSON.stringify({ dsn: config.sentry.dsn })}\n{"type":"event"}\n{}\n`;
    expect((await t.request("/monitoring", { method: "POST", body: envelope })).status).toBe(200);
    expect(ingest.received.at(-1)?.text).not.toContain("topsecret");
    await ingest.reset();
  });
});

describe("with SENTRY_DSN", () => {
  let monitoring: ServerMonitoring;
  let t: TestApp;

  beforeAll(async () => {
    const env = { SENTRY_DSN: ingest.dsn() };
    monitoring = initServerSentry(testConfig(env), assets.manifest.buildId)!;
    t = await testApp(env, { capture: monitoring.capture });
  });

  afterAll(async () => {
    await monitoring?.close(2_000);
  });

  beforeEach(() => ingest.reset());

  /** Every event the ingest has once the SDK has sent what it holds. */
  async function sentEvents(): Promise<Event[]> {
    expect(await monitoring.flush(2_000)).toBe(true);
    return ingest.events();
  }

  test.each([
    ["/server-error", "loader"],
    ["/render-error", "render"],
  ])("%s: exactly one event, tagged with the digest on the page, its route and phase", async (path, phase) => {
    const res = await t.request(path);
    const html = await res.text();
    const digest = digestIn(html);
    expect(digest).toMatch(/^[0-9a-z]{10}$/);
    const events = await sentEvents();
    expect(events).toHaveLength(1);
    const [event] = events as [Event];
    expect(event.tags).toEqual({ digest, route: path, phase });
    expect(event.contexts?.request).toEqual({ requestId: res.headers.get("x-request-id"), method: "GET", path });
    expect(event.release).toBe(assets.manifest.buildId);
    expect(event.environment).toBe("production");
    expect(event.exception?.values?.at(-1)?.mechanism).toMatchObject({ type: `brisk.${phase}`, handled: false });
    // The same digest is on the request's log line: page, log and event name one occurrence.
    expect((await logFor(t.logs, res)).digest).toBe(digest);
  });

  test("repeated visits to the same failing page are one event each, each with its own digest", async () => {
    // One call site, so the events' stacks are identical: Sentry's Dedupe would keep only some of them.
    const digests: Array<string | undefined> = [];
    for (let i = 0; i < 3; i++) digests.push(digestIn(await (await t.request("/server-error")).text()));
    expect(new Set(digests).size).toBe(3);
    expect((await sentEvents()).map((e) => e.tags?.digest).sort()).toEqual(digests.sort());
  });

  test("/late-error: one event with the digest that streamed to the page after the shell", async () => {
    const res = await t.request("/late-error");
    expect(res.status).toBe(200);
    const digest = lateDigestIn(await res.text());
    expect(digest).toMatch(/^[0-9a-z]{10}$/);
    const events = await sentEvents();
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toEqual({ digest, route: "/late-error", phase: "deferred" });
    expect(events[0]?.exception?.values?.at(-1)?.value).toBe("Fixture failure in a streamed section (/late-error)");
  });

  test("page data for a failing loader: one event with the digest the client receives", async () => {
    const head = JSON.parse((await (await t.request("/__data/server-error")).text()).split("\n")[0]!);
    const events = await sentEvents();
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest: head.error.digest, route: "/server-error", phase: "loader" });
  });

  test.each(OUTCOMES)("%s (an outcome) sends nothing", async (path) => {
    const res = await t.request(path);
    await res.text();
    expect(res.status).toBeLessThan(500);
    await sentEvents();
    expect(ingest.received).toEqual([]);
  });

  test("a handler error that Elysia catches is captured from onError with the digest in the response", async () => {
    // A broken asset store: the assets handler throws, and only the app's onError sees it.
    const broken: ClientAssets = {
      ...assets,
      get: () => {
        throw new Error("asset store unavailable");
      },
    };
    const app = await testApp({ SENTRY_DSN: ingest.dsn() }, { capture: monitoring.capture, assets: broken });
    const res = await app.request(`/assets/${assets.manifest.entry}`);
    expect(res.status).toBe(500);
    const digest = /digest ([0-9a-z]{10})/.exec(await res.text())?.[1];
    const events = await sentEvents();
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest, phase: "handler" });
    expect(events[0]?.exception?.values?.at(-1)?.value).toBe("asset store unavailable");
  });

  test("a visitor who leaves mid-stream is no error: nothing is sent", async () => {
    const visitor = new AbortController();
    const res = await t.app.handle(new Request("http://localhost/late-error", { signal: visitor.signal }));
    expect(res.status).toBe(200);
    // The shell has arrived; the streamed section (100 ms later) has not.
    await res.body!.getReader().read();
    visitor.abort();
    // Had the render gone on, the section would have failed by now and been reported.
    await Bun.sleep(300);
    await sentEvents();
    expect(ingest.received).toEqual([]);
    expect((await logFor(t.logs, res)).digest).toBeUndefined();
  });
});
