import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { brotliCompressSync } from "node:zlib";
import { Elysia } from "elysia";
import fc from "fast-check";
import { parseConfig } from "../../../src/server/config/config.ts";
import { monitoringPlugin } from "../../../src/server/monitoring/monitoring-plugin.ts";
import { createTunnel } from "../../../src/server/monitoring/tunnel.ts";
import { RETRY_AFTER_SECONDS } from "../../../src/server/monitoring/tunnel-upstream.ts";
import { startFakeIngest, type FakeIngest } from "brisk/test";
import { within } from "../../support/until.ts";

let ingest: FakeIngest;
beforeEach(async () => {
  ingest = await startFakeIngest();
});
afterEach(() => ingest.stop());

const encoder = new TextEncoder();
const EVENT_ITEMS = '{"type":"event"}\n{"message":"boom","tags":{"digest":"d-1"}}\n';

function envelope(dsn: string, rest: string | Uint8Array = EVENT_ITEMS): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`${JSON.stringify({ event_id: "e1", dsn })}\n`);
  const tail = typeof rest === "string" ? encoder.encode(rest) : rest;
  const bytes = new Uint8Array(head.byteLength + tail.byteLength);
  bytes.set(head);
  bytes.set(tail, head.byteLength);
  return bytes;
}

function appWith(env: Record<string, string> = {}) {
  const config = parseConfig({ SENTRY_DSN: ingest.dsn(), ...env });
  return new Elysia().use(monitoringPlugin(config));
}

interface App {
  handle(request: Request): Promise<Response>;
}

function post(app: App, body: BodyInit | null, headers?: HeadersInit): Promise<Response> {
  return app.handle(new Request("http://localhost/monitoring", { method: "POST", body, headers }));
}

/** A body of unknown length: `chunks` chunks of `size` bytes, counting what was pulled. */
function chunkedBody(chunks: number, size: number) {
  const state = { pulled: 0 };
  const cancel = Promise.withResolvers<void>();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === chunks) return controller.close();
      state.pulled++;
      controller.enqueue(new Uint8Array(size).fill(120));
    },
    cancel: () => cancel.resolve(),
  });
  return { stream, state, cancelled: () => within(cancel.promise, "the stream's cancellation", 5_000) };
}

describe("allowlist from configuration", () => {
  test("answers 404 with a clear message and forwards nothing when no DSN is configured", async () => {
    const app = new Elysia().use(monitoringPlugin(parseConfig({})));
    const res = await post(app, envelope(ingest.dsn()));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("the monitoring tunnel is not configured (SENTRY_DSN is unset)");
    expect(ingest.received).toHaveLength(0);
  });

  test("refuses at setup a configured DSN that @sentry/core rejects", () => {
    const options = { maxBytes: 1024, timeoutMs: 100, maxInFlight: 1 };
    expect(() => createTunnel({ ...options, dsns: ["https://key@sentry.example.com/not-a-project"] })).toThrow(
      "SENTRY_DSN or SENTRY_TUNNEL_DSNS",
    );
  });

  test("forwards to each DSN of SENTRY_TUNNEL_DSNS at its own project", async () => {
    const app = appWith({ SENTRY_TUNNEL_DSNS: `${ingest.dsn("7", "otherkey")}, ${ingest.dsn("8", "thirdkey")}` });
    expect((await post(app, envelope(ingest.dsn("8", "thirdkey")))).status).toBe(200);
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(200);
    expect(ingest.received.map((r) => `${r.path}${r.search}`)).toEqual([
      "/api/8/envelope/?sentry_version=7&sentry_key=thirdkey",
      "/api/42/envelope/?sentry_version=7&sentry_key=publickey",
    ]);
  });
});

describe("size limit", () => {
  test("returns 413 when Content-Length exceeds maxBytes, without reading the body", async () => {
    const app = appWith({ MONITORING_MAX_BYTES: "1024" });
    const request = new Request("http://localhost/monitoring", {
      method: "POST",
      headers: { "content-length": "1025" },
      body: chunkedBody(100, 512).stream,
    });
    const res = await app.handle(request);
    expect(res.status).toBe(413);
    expect(request.bodyUsed).toBe(false);
    expect(ingest.received).toHaveLength(0);
  });

  test("returns 413 for a chunked body past maxBytes and cancels it as soon as the count passes the limit", async () => {
    const app = appWith({ MONITORING_MAX_BYTES: "1024" });
    const { stream, state, cancelled } = chunkedBody(1_000, 512);
    const res = await post(app, stream);
    expect(res.status).toBe(413);
    await cancelled();
    // Three 512-byte chunks pass 1024; allow the stream's own read-ahead of one chunk.
    expect(state.pulled).toBeLessThanOrEqual(4);
    expect(ingest.received).toHaveLength(0);
  });

  test("returns 413 when Content-Length understates the real body", async () => {
    const app = appWith({ MONITORING_MAX_BYTES: "1024" });
    const body = envelope(ingest.dsn(), "x".repeat(2_000));
    const res = await post(app, body, { "content-length": "100" });
    expect(res.status).toBe(413);
    expect(ingest.received).toHaveLength(0);
  });

  test("forwards a chunked body of unknown length under maxBytes whole", async () => {
    const app = appWith();
    const bytes = envelope(ingest.dsn(), "y".repeat(3_000));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.byteLength; i += 700) controller.enqueue(bytes.slice(i, i + 700));
        controller.close();
      },
    });
    expect((await post(app, stream)).status).toBe(200);
    expect(ingest.received[0]?.body).toEqual(bytes);
  });

  test("a body read as one chunk that is a view on a larger buffer is forwarded as exactly its bytes", async () => {
    const bytes = envelope(ingest.dsn(), "v".repeat(500));
    const larger = new Uint8Array(bytes.byteLength + 64).fill(33);
    larger.set(bytes, 32);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(larger.subarray(32, 32 + bytes.byteLength));
        controller.close();
      },
    });
    expect((await post(appWith(), stream)).status).toBe(200);
    expect(ingest.received[0]?.body).toEqual(bytes);
  });

  test("accepts a body of exactly maxBytes", async () => {
    const app = appWith({ MONITORING_MAX_BYTES: "1024" });
    const head = envelope(ingest.dsn(), "");
    const body = envelope(ingest.dsn(), "z".repeat(1024 - head.byteLength));
    expect(body.byteLength).toBe(1024);
    expect((await post(app, body, { "content-length": "1024" })).status).toBe(200);
  });
});

describe("envelope header", () => {
  const cases: Array<[string, BodyInit | null]> = [
    ["no body", null],
    ["an empty body", ""],
    ["a first line that is not JSON", "not json\n{}"],
    ["a truncated JSON first line", '{"dsn":"http://a@b/1"\n{}'],
    ["a JSON array", "[1,2]\n{}"],
    ["a JSON string", '"http://publickey@127.0.0.1/42"\n{}'],
    ["JSON null", "null\n{}"],
    ["an object without dsn", '{"event_id":"e1"}\n{}'],
    ["a dsn that is not a string", '{"dsn":42}\n{}'],
  ];
  for (const [what, body] of cases) {
    test(`returns 400 for ${what}`, async () => {
      const res = await post(appWith(), body);
      expect(res.status).toBe(400);
      expect(ingest.received).toHaveLength(0);
    });
  }

  test("returns 400, not 5xx, when the body stream fails mid-read", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("client went away"));
      },
    });
    expect((await post(appWith(), stream)).status).toBe(400);
  });

  test("parses only the first line: binary items after it are fine", async () => {
    const res = await post(appWith(), envelope(ingest.dsn(), new Uint8Array([0xff, 0xfe, 0x00, 0x0a, 0x80])));
    expect(res.status).toBe(200);
  });

  test("error bodies are short plain text and never echo the visitor's input", async () => {
    const marker = "<script>visitor-marker</script>";
    const responses = await Promise.all([
      post(appWith(), `${marker}\n{}`),
      post(appWith(), envelope(`http://${marker}@127.0.0.1:${ingest.port}/42`)),
      post(appWith(), `{"dsn":{"x":"${marker}"}}\n`),
    ]);
    for (const res of responses) {
      const text = await res.text();
      expect(text).not.toContain("visitor-marker");
      expect(text.length).toBeLessThan(80);
      expect(res.headers.get("content-type")).toStartWith("text/plain");
    }
  });

  test("never throws and never answers 5xx for arbitrary request bodies", async () => {
    const app = appWith();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.string({ maxLength: 300 })), async (body) => {
        const res = await post(app, body);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
    expect(ingest.received).toHaveLength(0);
  });

  test("never answers 5xx for arbitrary JSON headers, whatever their dsn", async () => {
    const app = appWith();
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.webUrl(), async (value, url) => {
        for (const header of [value, { dsn: url }, { dsn: value }]) {
          const res = await post(app, `${JSON.stringify(header)}\n{}`);
          expect([400, 403]).toContain(res.status);
        }
      }),
      { numRuns: 100 },
    );
    expect(ingest.received).toHaveLength(0);
  });
});

describe("DSN allowlist", () => {
  test("returns 403 for every look-alike of the configured DSN and forwards none", async () => {
    const port = ingest.port;
    const app = appWith({
      SENTRY_TUNNEL_DSNS: `http://hostkey@localhost:${port}/9, https://selfkey@sentry.example.com/prefix/5`,
    });
    const lookAlikes = [
      `http://otherkey@127.0.0.1:${port}/42`, // another key
      `http://publickey@127.0.0.2:${port}/42`, // another host
      `http://publickey@127.0.0.1:${port + 1}/42`, // another port
      `http://publickey@127.0.0.1/42`, // port dropped
      `http://publickey@127.0.0.1:${port}/43`, // another project
      `http://publickey@127.0.0.1:${port}/420`,
      `http://publickey@127.0.0.1:${port}/42/`,
      `http://publickey@127.0.0.1:${port}/42?x=1`,
      `http://publickey@127.0.0.1:${port}/prefix/42`, // extra path
      `http://publickey@evil@127.0.0.1:${port}/42`,
      `http://publickey@evil.example@127.0.0.1:${port}/42`,
      `http://publickey:secret@127.0.0.1:${port}/42`,
      `https://publickey@127.0.0.1:${port}/42`, // another scheme
      `HTTP://publickey@127.0.0.1:${port}/42`,
      `http://hostkey@127.0.0.1:${port}/9`, // IP literal for a hostname DSN
      `http://publickey@localhost:${port}/42`, // hostname for an IP DSN
      `http://hostkey@LOCALHOST:${port}/9`, // uppercase host
      `http://hostkey@localhost.:${port}/9`, // trailing-dot host
      `http://hostkey@Localhost:${port}/9`,
      `https://selfkey@sentry.example.com/5`, // self-hosted prefix dropped
      `https://selfkey@sentry.example.com/other/5`, // another prefix
      `https://selfkey@sentry.example.com/prefix/prefix/5`,
      `https://selfkey@sentry.example.com:443/prefix/5`,
      ` http://publickey@127.0.0.1:${port}/42`,
      `http://publickey@127.0.0.1:${port}/42 `,
      "",
      "not a dsn",
    ];
    for (const dsn of lookAlikes) {
      const res = await post(app, envelope(dsn));
      expect({ dsn, status: res.status }).toEqual({ dsn, status: 403 });
      expect(await res.text()).toBe("dsn not allowed");
    }
    expect(ingest.received).toHaveLength(0);
  });

  test("forwards a self-hosted DSN with a path prefix to the prefixed ingest URL", async () => {
    const app = appWith({ SENTRY_DSN: ingest.dsn("42", "publickey", "sentry/prefix") });
    expect((await post(app, envelope(ingest.dsn("42", "publickey", "sentry/prefix")))).status).toBe(200);
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(403);
    expect(ingest.received.map((r) => `${r.path}${r.search}`)).toEqual([
      "/sentry/prefix/api/42/envelope/?sentry_version=7&sentry_key=publickey",
    ]);
  });
});

describe("forwarding", () => {
  test("forwards the unchanged bytes to the ingest URL built from the configured DSN", async () => {
    // Gzip magic, NULs, invalid UTF-8 and CR/LF: only the first line is the envelope header.
    const binary = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x00, 0xff, 0x0d, 0x0a, 0x0a, 0xc3, 0x28, 0x00, 0x7f]);
    const body = envelope(ingest.dsn(), binary);
    const res = await post(appWith(), body, { "content-type": "text/plain" });
    expect(res.status).toBe(200);
    expect(ingest.received).toHaveLength(1);
    const got = ingest.received[0]!;
    expect(got.method).toBe("POST");
    expect(got.path).toBe("/api/42/envelope/");
    expect(new URLSearchParams(got.search).get("sentry_key")).toBe("publickey");
    expect(new URLSearchParams(got.search).get("sentry_version")).toBe("7");
    expect(got.headers.get("content-type")).toBe("application/x-sentry-envelope");
    expect(Buffer.from(got.body).equals(Buffer.from(body))).toBe(true);
  });

  test("forwarded envelopes parse at the ingest, digest tag included", async () => {
    await post(appWith(), envelope(ingest.dsn()));
    expect(ingest.events().map((e) => e.tags?.digest)).toEqual(["d-1"]);
  });

  test("sends no visitor cookie, Authorization or other header upstream", async () => {
    const res = await post(appWith(), envelope(ingest.dsn()), {
      cookie: "session=secret",
      authorization: "Bearer secret",
      "x-custom": "secret",
      "x-sentry-auth": "Sentry sentry_key=evil",
      "user-agent": "visitor-agent",
      referer: "http://localhost/account?token=secret",
      "x-forwarded-for": "203.0.113.9",
    });
    expect(res.status).toBe(200);
    const headers = ingest.received[0]!.headers;
    for (const name of ["cookie", "authorization", "x-custom", "x-sentry-auth", "referer", "x-forwarded-for"]) {
      expect({ name, value: headers.get(name) }).toEqual({ name, value: null });
    }
    expect(headers.get("user-agent")).not.toBe("visitor-agent");
    expect([...headers.values()].join(" ")).not.toContain("secret");
  });

  test("passes on the address the trusted proxy saw, never one the visitor wrote before it", async () => {
    const app = appWith({ TRUST_PROXY: "true" });
    await post(app, envelope(ingest.dsn()), { "x-forwarded-for": "10.0.0.1, 203.0.113.7 " });
    await post(app, envelope(ingest.dsn()), { "x-forwarded-for": "198.51.100.1, not-an-ip" });
    // In process there is no socket: an entry that is no address leaves the visitor without one.
    expect(ingest.received.map((r) => r.headers.get("x-forwarded-for"))).toEqual(["203.0.113.7", null]);
  });
});

describe("upstream answers", () => {
  test("passes the upstream status, body and only Retry-After, X-Sentry-Rate-Limits and Content-Type back", async () => {
    await ingest.setMode("status", {
      status: 429,
      body: '{"detail":"rate limited"}',
      headers: {
        "content-type": "application/json",
        "retry-after": "60",
        "x-sentry-rate-limits": "60:error:organization",
        "strict-transport-security": "max-age=31536000",
        "set-cookie": "upstream=1; Path=/",
        "x-upstream-secret": "1",
        "access-control-allow-origin": "*",
      },
    });
    const res = await post(appWith(), envelope(ingest.dsn()));
    expect(res.status).toBe(429);
    expect(await res.text()).toBe('{"detail":"rate limited"}');
    expect(Object.fromEntries(res.headers)).toEqual({
      "content-type": "application/json",
      "retry-after": "60",
      "x-sentry-rate-limits": "60:error:organization",
    });
  });

  test("passes a 200 with its small JSON body back", async () => {
    const res = await post(appWith(), envelope(ingest.dsn()));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("{}");
    expect(res.headers.get("content-type")).toBe("application/json");
  });

  test("does not follow an upstream redirect: 502, and the redirect target gets nothing", async () => {
    const target = await startFakeIngest();
    try {
      await ingest.setMode("status", { status: 302, headers: { location: `${target.url}/api/42/envelope/` } });
      const res = await post(appWith(), envelope(ingest.dsn()));
      expect(res.status).toBe(502);
      expect(ingest.received).toHaveLength(1);
      expect(target.received).toHaveLength(0);
    } finally {
      await target.stop();
    }
  });

  test("returns 504 when the upstream does not answer within monitoringTimeoutMs", async () => {
    await ingest.setMode("slow");
    const started = performance.now();
    const res = await post(appWith({ MONITORING_TIMEOUT_MS: "100" }), envelope(ingest.dsn()));
    expect(res.status).toBe(504);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("returns 502 when the upstream is unreachable", async () => {
    const app = appWith();
    await ingest.setMode("down");
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(502);
  });

  test("returns 502 instead of throwing when the fetch itself throws", async () => {
    const throwing = (() => {
      throw new TypeError("boom");
    }) as unknown as typeof fetch;
    const app = new Elysia().use(monitoringPlugin(parseConfig({ SENTRY_DSN: ingest.dsn() }), { fetch: throwing }));
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(502);
  });

  test("passes an upstream 5xx through as the upstream's failure", async () => {
    await ingest.setMode("status", {
      status: 500,
      body: '{"detail":"internal"}',
      headers: { "content-type": "application/json" },
    });
    const res = await post(appWith(), envelope(ingest.dsn()));
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('{"detail":"internal"}');
  });

  test("passes neither the Content-Type nor the body of an answer that is not Sentry's JSON", async () => {
    await ingest.setMode("status", {
      status: 503,
      body: "<html><script>alert(1)</script>maintenance</html>",
      headers: { "content-type": "text/html; charset=utf-8" },
    });
    const res = await post(appWith(), envelope(ingest.dsn()));
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBeNull();
    expect(await res.text()).toBe("");
  });

  test("every 502, 503 and 504 carries Retry-After; an upstream's own is kept", async () => {
    const statuses: Array<[string, number, string | null]> = [];
    const check = async (what: string) => {
      const res = await post(appWith({ MONITORING_TIMEOUT_MS: "100" }), envelope(ingest.dsn()));
      statuses.push([what, res.status, res.headers.get("retry-after")]);
    };
    await ingest.setMode("down");
    await check("unreachable");
    await ingest.setMode("slow");
    await check("timed out");
    await ingest.setMode("status", { status: 302, headers: { location: "http://127.0.0.1:1/" } });
    await check("redirected");
    await ingest.setMode("status", { status: 503 });
    await check("upstream 503");
    await ingest.setMode("status", { status: 502, body: "bad gateway" });
    await check("upstream 502");
    await ingest.setMode("status", { status: 503, headers: { "retry-after": "7" } });
    await check("upstream 503 with its own");
    expect(statuses).toEqual([
      ["unreachable", 502, RETRY_AFTER_SECONDS],
      ["timed out", 504, RETRY_AFTER_SECONDS],
      ["redirected", 502, RETRY_AFTER_SECONDS],
      ["upstream 503", 503, RETRY_AFTER_SECONDS],
      ["upstream 502", 502, RETRY_AFTER_SECONDS],
      ["upstream 503 with its own", 503, "7"],
    ]);
  });

  test("asks the upstream for an uncompressed answer", async () => {
    await post(appWith(), envelope(ingest.dsn()));
    expect(ingest.received[0]?.headers.get("accept-encoding")).toBe("identity");
  });

  test("stops reading an answer once its decoded bytes pass 64 KiB, whatever its Content-Length says", async () => {
    // What fetch hands over for a compressed answer: the declared length is the compressed one.
    const { stream, state, cancelled } = chunkedBody(1_000, 16 * 1024);
    const inflating = (async () =>
      new Response(stream, {
        headers: { "content-type": "application/json", "content-length": "600" },
      })) as unknown as typeof fetch;
    const app = new Elysia().use(monitoringPlugin(parseConfig({ SENTRY_DSN: ingest.dsn() }), { fetch: inflating }));
    const res = await post(app, envelope(ingest.dsn()));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    await cancelled();
    // Five 16 KiB chunks pass 64 KiB; allow the stream's read-ahead of one.
    expect(state.pulled).toBeLessThanOrEqual(6);
  });

  test("a compressed answer is cut at 64 KiB of decoded bytes: a brotli bomb is not inflated", async () => {
    // 16 MiB of JSON whitespace in ~600 bytes of brotli, sent whatever the request asked for.
    const bomb = brotliCompressSync(Buffer.alloc(16 * 1024 * 1024, 32));
    const upstream = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response(bomb, { headers: { "content-encoding": "br", "content-type": "application/json" } }),
    });
    try {
      const dsn = `http://publickey@127.0.0.1:${upstream.port}/42`;
      const res = await post(appWith({ SENTRY_DSN: dsn }), envelope(dsn));
      expect(res.status).toBe(200);
      expect((await res.bytes()).byteLength).toBeLessThanOrEqual(64 * 1024);
    } finally {
      await upstream.stop(true);
    }
  });

  test("answers 429 with Retry-After: 1 beyond monitoringMaxInFlight, without contacting upstream", async () => {
    await ingest.setMode("slow", { delayMs: 300 });
    const app = appWith({ MONITORING_MAX_IN_FLIGHT: "1" });
    const first = post(app, envelope(ingest.dsn()));
    await ingest.waitFor(1);
    const second = await post(app, envelope(ingest.dsn()));
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    expect(ingest.received).toHaveLength(1);
    expect((await first).status).toBe(200);
    await ingest.setMode("up");
    // The slot is given back once the upstream has answered.
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(200);
  });

  test("gives the in-flight slot back after a timeout and after an unreachable upstream", async () => {
    const app = appWith({ MONITORING_MAX_IN_FLIGHT: "1", MONITORING_TIMEOUT_MS: "100" });
    await ingest.setMode("slow");
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(504);
    await ingest.setMode("up");
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(200);
    await ingest.setMode("down");
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(502);
    await ingest.setMode("up");
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(200);
  });
});

describe("admission", () => {
  /** A valid envelope whose last bytes wait until `finish()`: its request holds its slot while being read. */
  function heldUpload(dsn: string) {
    const bytes = envelope(dsn);
    const reading = Promise.withResolvers<void>();
    const finished = Promise.withResolvers<void>();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.subarray(0, 10));
        reading.resolve();
        await finished.promise;
        controller.enqueue(bytes.subarray(10));
        controller.close();
      },
    });
    return { stream, reading: reading.promise, finish: () => finished.resolve() };
  }

  test("a request is refused with 429 before a byte of its body is read while maxInFlight bodies are being read", async () => {
    const app = appWith({ MONITORING_MAX_IN_FLIGHT: "1" });
    const held = heldUpload(ingest.dsn());
    const first = post(app, held.stream);
    await held.reading;
    const { stream, state } = chunkedBody(4, 512);
    const request = new Request("http://localhost/monitoring", { method: "POST", body: stream });
    const second = await app.handle(request);
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("1");
    expect(request.bodyUsed).toBe(false);
    expect(state.pulled).toBeLessThanOrEqual(1);
    held.finish();
    expect((await first).status).toBe(200);
    // The slot is free again once the first has been answered.
    expect((await post(app, envelope(ingest.dsn()))).status).toBe(200);
  });

  test("the slot is held until the upstream answers, and CSP reports share the slots", async () => {
    await ingest.setMode("slow", { delayMs: 200 });
    const app = appWith({ MONITORING_MAX_IN_FLIGHT: "1" });
    const first = post(app, envelope(ingest.dsn()));
    await ingest.waitFor(1);
    const report = await app.handle(
      new Request("http://localhost/monitoring/csp", {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/csp-report" },
      }),
    );
    expect(report.status).toBe(429);
    expect((await first).status).toBe(200);
  });
});

describe("cross-site posts", () => {
  const refused: Array<[string, Record<string, string>]> = [
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    [
      "a sibling subdomain's Origin (Sec-Fetch-Site: same-site)",
      { "sec-fetch-site": "same-site", origin: "http://shop.localhost" },
    ],
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["a foreign Referer and no Origin", { referer: "https://evil.example/page" }],
    ["an Origin on another port", { origin: "http://localhost:8080" }],
    [
      "this site's own Origin under Sec-Fetch-Site: same-site",
      { "sec-fetch-site": "same-site", origin: "http://localhost" },
    ],
    ["a Referer on another port and no Origin", { referer: "https://localhost:8443/page" }],
  ];
  for (const [what, headers] of refused) {
    test(`refuses ${what} with 403 and forwards nothing`, async () => {
      const res = await post(appWith(), envelope(ingest.dsn()), headers);
      expect(res.status).toBe(403);
      expect(await res.text()).toBe("cross-site envelopes are refused");
      expect(ingest.received).toHaveLength(0);
    });
  }

  const allowed: Array<[string, Record<string, string>]> = [
    ["Sec-Fetch-Site: same-origin", { "sec-fetch-site": "same-origin", origin: "http://localhost" }],
    ["this site's Origin", { origin: "http://localhost" }],
    ["no browser headers at all", {}],
    // Behind a TLS proxy without TRUST_PROXY: the page is https://, this server sees http://; only host and port count.
    ["this host's https Origin", { "sec-fetch-site": "same-origin", origin: "https://localhost" }],
    ["this host's https Referer and no Origin", { referer: "https://localhost/page?x=1" }],
  ];
  for (const [what, headers] of allowed) {
    test(`forwards ${what}`, async () => {
      expect((await post(appWith(), envelope(ingest.dsn()), headers)).status).toBe(200);
    });
  }
});

describe("methods", () => {
  for (const method of ["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]) {
    test(`answers ${method} with 405 and Allow: POST`, async () => {
      const withBody = method === "PUT" || method === "PATCH" || method === "DELETE";
      const res = await appWith().handle(
        new Request("http://localhost/monitoring", {
          method,
          headers: withBody ? { "content-type": "application/json" } : undefined,
          body: withBody ? "{not json" : undefined,
        }),
      );
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(ingest.received).toHaveLength(0);
    });
  }
});

describe("over a real socket", () => {
  /** POSTs through a listening app and returns the status once the app is stopped again. */
  async function postOverSocket(env: Record<string, string>, init: RequestInit): Promise<number> {
    const app = appWith(env).listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const res = await fetch(`http://127.0.0.1:${app.server!.port}/monitoring`, { method: "POST", ...init });
      await res.arrayBuffer();
      return res.status;
    } finally {
      await app.stop(true);
    }
  }

  test("forwards the socket address as X-Forwarded-For and ignores the visitor's header without a trusted proxy", async () => {
    const init = { body: envelope(ingest.dsn()), headers: { "x-forwarded-for": "203.0.113.9" } };
    expect(await postOverSocket({}, init)).toBe(200);
    expect(ingest.received[0]?.headers.get("x-forwarded-for")).toBe("127.0.0.1");
  });

  test("behind TRUST_PROXY, passes on the X-Forwarded-For entry the proxy appended, over the socket's", async () => {
    const init = { body: envelope(ingest.dsn()), headers: { "x-forwarded-for": "203.0.113.9, 2001:db8::1" } };
    expect(await postOverSocket({ TRUST_PROXY: "true" }, init)).toBe(200);
    expect(ingest.received[0]?.headers.get("x-forwarded-for")).toBe("2001:db8::1");
  });

  test("returns 413 for a streamed upload past maxBytes", async () => {
    expect(await postOverSocket({ MONITORING_MAX_BYTES: "1024" }, { body: chunkedBody(8, 512).stream })).toBe(413);
    expect(ingest.received).toHaveLength(0);
  });

  test("returns 413 from Content-Length for an upload past maxBytes", async () => {
    const body = envelope(ingest.dsn(), "x".repeat(5_000));
    expect(await postOverSocket({ MONITORING_MAX_BYTES: "1024" }, { body })).toBe(413);
    expect(ingest.received).toHaveLength(0);
  });
});
