// Server events from the real @sentry/bun, sent to a fake ingest: each failure once, tagged with the digest
// the visitor sees; outcomes and disconnects never. Sentry.init is global to the process: this file inits it
// once, after the tests that need it off, and closes it at the end.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import * as Sentry from "@sentry/bun";
import type { Event } from "@sentry/core";
import type { ClientAssets } from "../../../src/server/assets/assets.ts";
import { initServerSentry, type ServerMonitoring } from "../../../src/server/monitoring/sentry.ts";
import { logFor, serveApp, type FakeIngest, type ListeningApp, type ServedApp } from "brisk/test";
import { FIXTURE, listenWith, serveWith, testConfig } from "../../support/app.ts";
import { useFakeIngest } from "../../support/sentry-ingest.ts";
import { bootState, settledInScripts } from "../../support/page-state.ts";

const setup = useFakeIngest();
let ingest: FakeIngest;
let assets: ClientAssets;
/** DATA_DIR: where an outbox would go, never the working folder. */
let dataDir: string;

beforeAll(() => {
  ({ ingest, assets, dataDir } = setup());
});

const digestIn = (html: string) => /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)?.[1];
const lateDigestIn = (html: string): string | undefined => settledInScripts(html)[0]?.error?.digest;

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
    const t = await serveApp({ ...FIXTURE, env });
    for (const path of [...FAILING, ...OUTCOMES]) await (await t.request(path)).text();
    const html = await (await t.request("/server-error")).text();
    expect(digestIn(html)).toMatch(/^[0-9a-z]{10}$/);
    // The browser is not told to start Sentry either.
    expect(html).not.toContain('"sentry":');
    expect(Sentry.getClient()).toBe(before);
    // A report would have left during its request: the ingest's one request is the tunnel's, sent after them all.
    const marker = `${JSON.stringify({ dsn: ingest.dsn() })}\n{"type":"event"}\n{}\n`;
    expect((await t.request("/monitoring", { method: "POST", body: marker })).status).toBe(200);
    expect(ingest.received.map((r) => r.text)).toEqual([marker]);
    await ingest.reset();
  });
});

describe("a DSN with a secret", () => {
  test("the page gets the public key only, and the tunnel still takes the browser's envelopes for it", async () => {
    const secretDsn = ingest.dsn().replace("publickey@", "publickey:topsecret@");
    const t = await serveApp({ ...FIXTURE, env: { SENTRY_DSN: secretDsn } });
    const html = await (await t.request("/")).text();
    expect(html).not.toContain("topsecret");
    const config = bootState(html).config;
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
  let t: ServedApp;

  beforeAll(async () => {
    const env = { SENTRY_DSN: ingest.dsn(), DATA_DIR: dataDir };
    monitoring = initServerSentry(testConfig(env), assets.manifest.buildId, { log: () => {} })!;
    t = await serveWith({ ...FIXTURE, env }, { capture: monitoring.capture, monitor: monitoring.monitor });
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

  const SAME_ORIGIN = {
    origin: "http://localhost",
    "sec-fetch-site": "same-origin",
    "content-type": "application/x-www-form-urlencoded",
  };
  const boom = { method: "POST", headers: SAME_ORIGIN, body: "text=boom" };
  test.each([
    ["a loader", "/server-error", {}, "GET /server-error"],
    ["a render", "/render-error", {}, "GET /render-error"],
    ["a streamed section", "/late-error", {}, "GET /late-error"],
    ["page data", "/__data/server-error", {}, "GET /server-error"],
    ["a document form post's action", "/form", boom, "POST /form"],
    ["a JavaScript form post's action", "/__data/form", boom, "POST /form"],
    ["an API route", "/api/fails", {}, "GET /api/fails"],
  ] as const)("%s: the event names its route as its transaction (%s, tracing off)", async (_what, path, init, name) => {
    const res = await t.request(path, init as RequestInit);
    await res.text();
    expect(res.status).toBeOneOf([200, 500]);
    const events = await sentEvents();
    expect(events.map((e) => e.transaction)).toEqual([name]);
  });

  test("an API route's error: a 500 with its digest and request id, reported once with its route and phase", async () => {
    const res = await t.request("/api/fails");
    expect(res.status).toBe(500);
    const body = (await res.json()) as { digest: string; requestId: string };
    expect(body.requestId).toBe(res.headers.get("x-request-id")!);
    const events = await sentEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      transaction: "GET /api/fails",
      tags: { digest: body.digest, route: "/api/fails", phase: "handler" },
    });
    expect(await logFor(t.logs, res)).toMatchObject({ route: "/api/fails", digest: body.digest });
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

  test.each(OUTCOMES)("%s (an outcome) sends no event", async (path) => {
    const res = await t.request(path);
    await res.text();
    expect(res.status).toBeLessThan(500);
    expect(await sentEvents()).toEqual([]);
  });

  test("a handler error that Elysia catches is captured from onError with the digest in the response", async () => {
    // A broken asset store: the assets handler throws, and only the app's onError sees it.
    const broken: ClientAssets = {
      ...assets,
      get: () => {
        throw new Error("asset store unavailable");
      },
    };
    const app = await serveWith(
      { ...FIXTURE, env: { SENTRY_DSN: ingest.dsn() } },
      { capture: monitoring.capture, monitor: monitoring.monitor, assets: broken },
    );
    const res = await app.request(`/assets/${assets.manifest.entry}`);
    expect(res.status).toBe(500);
    const digest = /digest ([0-9a-z]{10})/.exec(await res.text())?.[1];
    const events = await sentEvents();
    expect(events).toHaveLength(1);
    expect(events[0]?.tags).toMatchObject({ digest, phase: "handler" });
    expect(events[0]?.exception?.values?.at(-1)?.value).toBe("asset store unavailable");
    // Named after the Elysia route that failed, as no page or API route named it.
    expect(events[0]?.transaction).toBe("GET /assets/*");
  });

  test("an API route's error under a prerendered not-found page still carries its request (prerendered responses alone run bare)", async () => {
    const app = await serveWith(
      { ...FIXTURE, env: { SENTRY_DSN: ingest.dsn() } },
      { capture: monitoring.capture, monitor: monitoring.monitor },
    );
    await app.prerendered();
    const stored = await app.request("/no/such/page");
    expect(stored.status).toBe(404);
    const res = await app.request("/api/fails?visitor=api");
    expect(res.status).toBe(500);
    const events = await sentEvents();
    expect(events).toHaveLength(1);
    expect(events[0]?.request?.url).toBe("http://localhost/api/fails?visitor=api");
  });

  test("two concurrent failing requests: two trace ids, and each event carries its own request and nothing of the other's", async () => {
    const visit = (who: string) =>
      t.request(`/server-error?visitor=${who}&token=secret-${who}`, {
        headers: {
          "x-visitor": who,
          cookie: `session=cookie-${who}`,
          authorization: `Bearer key-${who}`,
          "x-forwarded-for": "203.0.113.9",
        },
      });
    const [a, b] = await Promise.all([visit("a"), visit("b")]);
    const digests = { a: digestIn(await a.text()), b: digestIn(await b.text()) };
    const events = await sentEvents();
    expect(events).toHaveLength(2);
    const byVisitor = Object.fromEntries(events.map((e) => [e.request?.headers?.["x-visitor"], e]));
    expect(new Set(events.map((e) => e.contexts?.trace?.trace_id)).size).toBe(2);
    for (const who of ["a", "b"] as const) {
      const event = byVisitor[who]!;
      expect(event.tags?.digest).toBe(digests[who]!);
      expect(event.contexts?.trace?.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(event.request).toMatchObject({
        method: "GET",
        // Sensitive query values are filtered, in the URL and the query string alike.
        url: `http://localhost/server-error?visitor=${who}&token=[Filtered]`,
        query_string: `visitor=${who}&token=[Filtered]`,
      });
      // No cookie, no credentials, no visitor-supplied address; nothing of the other request.
      const headers = event.request?.headers ?? {};
      expect(Object.keys(headers)).not.toContain("cookie");
      expect(Object.keys(headers)).not.toContain("authorization");
      expect(Object.keys(headers)).not.toContain("x-forwarded-for");
      expect(event.request?.cookies).toBeUndefined();
      // The frames' source lines are left out: they may quote this very test, whose code holds the values.
      const sent = JSON.stringify(event, (key, value) =>
        /^(pre_context|context_line|post_context)$/.test(key) ? undefined : value,
      );
      expect(sent).not.toContain(who === "a" ? "visitor=b" : "visitor=a");
      expect(sent).not.toMatch(/secret-|cookie-|key-/);
      // Personal data stays off by default: no address, no user.
      expect(event.user).toBeUndefined();
    }
  });

  test("query secrets are masked in the Referer as in the URL, code, email, sig, state, otp and nonce among them; other values stay", async () => {
    const referer =
      "https://other.example/reset?token=reset-secret&code=oauth-code&state=ref-state&otp=ref-otp&nonce=ref-nonce&q=kept#part";
    const query =
      "code=c-secret&email=who%40example.com&sig=s-secret&state=st-secret&otp=otp-secret&nonce=n-secret&q=shown";
    await (await t.request(`/server-error?${query}`, { headers: { referer } })).text();
    const [event] = await sentEvents();
    const masked =
      "code=[Filtered]&email=[Filtered]&sig=[Filtered]&state=[Filtered]&otp=[Filtered]&nonce=[Filtered]&q=shown";
    expect(event?.request?.url).toBe(`http://localhost/server-error?${masked}`);
    expect(event?.request?.query_string).toBe(masked);
    expect(event?.request?.headers?.referer).toBe(
      "https://other.example/reset?token=[Filtered]&code=[Filtered]&state=[Filtered]&otp=[Filtered]&nonce=[Filtered]&q=kept#part",
    );
    const sent = JSON.stringify(event, (key, value) =>
      /^(pre_context|context_line|post_context)$/.test(key) ? undefined : value,
    );
    expect(sent).not.toMatch(
      /reset-secret|oauth-code|c-secret|s-secret|who%40example|st-secret|otp-secret|n-secret|ref-state|ref-otp|ref-nonce/,
    );
  });

  test("an error event starts with a breadcrumb for its request", async () => {
    await (await t.request("/server-error?q=1")).text();
    const [event] = await sentEvents();
    expect(event?.breadcrumbs?.[0]).toMatchObject({
      type: "http",
      category: "request",
      data: { method: "GET", path: "/server-error" },
    });
  });

  test("frames name project files from the project root, and only the app's and Brisk's own are in-app", async () => {
    await (await t.request("/server-error")).text();
    const [event] = await sentEvents();
    const frames = event!.exception!.values!.at(-1)!.stacktrace!.frames!;
    const top = frames.at(-1)!;
    expect(top).toMatchObject({
      filename: "test/fixtures/app/loaders.server.ts",
      function: "serverErrorLoader",
      in_app: true,
    });
    expect(top.context_line).toContain("throw new Error");
    expect(frames.some((f) => f.filename?.startsWith("src/server/") && f.in_app)).toBe(true);
    const projectFile = (f: string | undefined) => f !== undefined && /^(src|test)\//.test(f);
    for (const frame of frames) expect(frame.in_app).toBe(projectFile(frame.filename));
  });

  test("release health: a handled 500 counts as an errored request, never as a crash", async () => {
    await (await t.request("/server-error")).text();
    await (await t.request("/")).text();
    await sentEvents();
    const aggregates = (ingest.items("sessions") as Array<{ aggregates: Array<Record<string, number>> }>).flatMap(
      (p) => p.aggregates,
    );
    const total = (field: string) => aggregates.reduce((sum, a) => sum + (a[field] ?? 0), 0);
    expect(total("errored")).toBe(1);
    expect(total("exited")).toBe(1);
    expect(total("crashed")).toBe(0);
  });

  test("a visitor who leaves mid-stream is no error: nothing is sent", async () => {
    const visitor = new AbortController();
    const res = await t.handle(new Request("http://localhost/late-error", { signal: visitor.signal }));
    expect(res.status).toBe(200);
    // The shell has arrived; the streamed section (100 ms later) has not.
    await res.body!.getReader().read();
    visitor.abort();
    // Had its render gone on, its section would have failed, and been reported, just before a later visit's.
    const later = await (await t.request("/late-error")).text();
    expect((await sentEvents()).map((e) => e.tags?.digest)).toEqual([lateDigestIn(later)]);
    expect((await logFor(t.logs, res)).digest).toBeUndefined();
  });
});

describe.each([
  ["without TRUST_PROXY", {}, "127.0.0.1"],
  ["with TRUST_PROXY", { TRUST_PROXY: "true" }, "203.0.113.9"],
])("with SENTRY_SEND_DEFAULT_PII=true, %s", (_name, extra, address) => {
  let monitoring: ServerMonitoring;
  let server: ListeningApp;

  beforeAll(async () => {
    const env = { SENTRY_DSN: ingest.dsn(), DATA_DIR: dataDir, SENTRY_SEND_DEFAULT_PII: "true", ...extra };
    monitoring = initServerSentry(testConfig(env), assets.manifest.buildId, { log: () => {} })!;
    // A real socket: the visitor's address is the socket's unless a trusted proxy says otherwise.
    server = await listenWith({ ...FIXTURE, env }, { capture: monitoring.capture, monitor: monitoring.monitor });
    await ingest.reset();
  });

  afterAll(async () => {
    await server?.stop();
    await monitoring?.close(2_000);
  });

  test(`the event has the visitor's address (${address}) and cookies with sensitive ones masked, still no credentials`, async () => {
    const res = await fetch(`${server.origin}/server-error`, {
      // The first entry is the visitor's to write; the last is what the one trusted proxy saw.
      headers: {
        "x-forwarded-for": "198.51.100.66, 203.0.113.9",
        cookie: "theme=dark; session=abc",
        authorization: "Bearer key",
      },
    });
    await res.text();
    expect(await monitoring.flush(2_000)).toBe(true);
    const [event] = ingest.events();
    expect(event?.user?.ip_address).toBe(address);
    expect(event?.request?.cookies).toEqual({ theme: "dark", session: "[Filtered]" });
    expect(Object.keys(event?.request?.headers ?? {})).not.toContain("authorization");
  });
});
