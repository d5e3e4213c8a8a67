// The example routes through the real app (app.handle): statuses, headers, content and log lines.
import { beforeAll, describe, expect, test } from "bun:test";
import { logFor, serveApp, type ServedApp } from "brisk/test";
import { FIXTURE, serveWith } from "../../support/app.ts";
import { bootScript, bootState, pageData as pageDataIn, settledInScripts } from "../../support/page-state.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
});

const digestIn = (html: string) => /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)?.[1];

describe("the fixture app's routes", () => {
  test.each([
    ["/", 200, "Fixture home"],
    ["/stream", 200, "Streamed section"],
    ["/search?q=hello", 200, "hello"],
    ["/not-found", 404, "Page not found"],
    ["/forbidden", 403, "Forbidden"],
    ["/unauthorized", 401, "Sign-in required"],
    ["/server-error", 500, "server<!-- -->-side exception"],
    ["/render-error", 500, "server<!-- -->-side exception"],
    ["/late-error", 200, "Late error"],
    ["/late-not-found", 200, "Late not found"],
    ["/client-error", 200, "Throw an error"],
    ["/lazy", 200, "its own chunk"],
    ["/no/such/page", 404, "Page not found"],
  ])("GET %s answers %i with its page", async (path, status, text) => {
    const res = await t.request(path);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const html = await res.text();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain(text);
  });

  test("redirect answers 307 with Location and no body", async () => {
    const res = await t.request("/redirect");
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("/");
    expect(await res.text()).toBe("");
  });

  test("outcome pages carry noindex; normal pages do not", async () => {
    expect(await (await t.request("/forbidden")).text()).toContain('<meta name="robots" content="noindex"/>');
    expect(await (await t.request("/")).text()).not.toContain('<meta name="robots"');
  });

  test("late not-found streams a noindex meta and the outcome after a 200 shell", async () => {
    const res = await t.request("/late-not-found");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(settledInScripts(html)).toEqual([
      { route: "/late-not-found", key: "section", outcome: { kind: "not-found", status: 404 } },
    ]);
  });
});

describe("errors before the shell", () => {
  test.each(["/server-error", "/render-error"])(
    "%s shows a digest that its one log line carries, and no message or stack",
    async (path) => {
      const res = await t.request(path);
      const html = await res.text();
      const digest = digestIn(html);
      expect(digest).toMatch(/^[0-9a-z]{10}$/);
      expect(html).toContain("while loading <!-- -->localhost");
      expect(html).not.toContain("Fixture failure");
      expect(html).not.toMatch(/at \w+ \(|\.tsx?:\d+/);
      const line = await logFor(t.logs, res);
      expect(line).toMatchObject({ level: "error", status: 500, digest, method: "GET", route: path });
      expect(String(line.stack)).toContain("Fixture failure");
    },
  );

  test("each occurrence gets its own digest", async () => {
    const a = digestIn(await (await t.request("/server-error")).text());
    const b = digestIn(await (await t.request("/server-error")).text());
    expect(a).not.toBe(b);
  });

  test("in development the error page shows the message and the stack", async () => {
    const dev = await serveApp({ ...FIXTURE, env: { NODE_ENV: "development" } });
    const html = await (await dev.request("/server-error")).text();
    expect(html).toContain("Fixture failure in a loader");
    expect(html).toContain("loaders.server.ts");
  });
});

describe("errors after the shell", () => {
  test("late error: status 200, the digest streams to the client and joins the log line", async () => {
    const res = await t.request("/late-error");
    expect(res.status).toBe(200);
    const html = await res.text();
    const [settled] = settledInScripts(html);
    expect(settled).toEqual({
      route: "/late-error",
      key: "section",
      error: { digest: expect.stringMatching(/^[0-9a-z]{10}$/), side: "server" },
    });
    const { digest } = settled.error;
    expect(html).not.toContain("Fixture failure");
    const line = await logFor(t.logs, res);
    expect(line).toMatchObject({ status: 200, digest, phase: "deferred" });
  });
});

describe("loader data embedding", () => {
  test("a hostile query cannot break out of the script tag, and round-trips exactly", async () => {
    const q = "</script><script>alert(1)</script><!-- \u2028\u2029 & \"'";
    const html = await (await t.request(`/search?q=${encodeURIComponent(q)}`)).text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<!-- \u2028");
    expect(bootScript(html)).not.toMatch(/[<>\u2028\u2029]/);
    expect(bootState(html).page.levels[0]!.data).toMatchObject({ q });
  });

  test("loader data is embedded once", async () => {
    const html = await (await t.request("/search?q=once-only-marker")).text();
    expect(html.split(`"q":"once-only-marker"`).length - 1).toBe(1);
  });
});

describe("streaming", () => {
  test("the shell arrives long before the ~300 ms section", async () => {
    const started = performance.now();
    const res = await t.request("/stream");
    const reader = res.body!.getReader();
    const first = await reader.read();
    const firstAt = performance.now() - started;
    const decoder = new TextDecoder();
    let html = decoder.decode(first.value);
    expect(html).toContain("Loading the streamed section");
    expect(html).not.toContain("Streamed section</h2>");
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      html += decoder.decode(value);
    }
    const totalAt = performance.now() - started;
    expect(html).toContain("Streamed section</h2>");
    expect(totalAt - firstAt).toBeGreaterThan(200);
  });
});

describe("page data", () => {
  const pageData = (path: string, init?: RequestInit) => pageDataIn(t, path, init);

  test("a page's data: route, loader data, build id", async () => {
    const { status, head } = await pageData("/search?q=x%20y");
    expect(status).toBe(200);
    expect(head).toMatchObject({
      v: 3,
      path: "/search",
      search: "q=x%20y",
      route: "/search",
      levels: [{ id: "/search", data: { q: "x y" } }],
    });
    expect(head.buildId).toMatch(/^[0-9a-z]+$/);
  });

  test("the root page's data is at /__data/", async () => {
    expect((await pageData("/")).head.route).toBe("/");
  });

  test("streamed values follow as their own lines", async () => {
    const { head, rest } = await pageData("/stream");
    expect(head.levels[0].deferred).toEqual(["section"]);
    expect(rest).toEqual([{ route: "/stream", key: "section", value: { items: ["alpha", "beta", "gamma"] } }]);
  });

  test.each([
    ["/redirect", 200, { kind: "redirect", location: "/", status: 307 }],
    ["/not-found", 404, { kind: "not-found", status: 404 }],
    ["/forbidden", 403, { kind: "forbidden", status: 403 }],
    ["/unauthorized", 401, { kind: "unauthorized", status: 401 }],
    ["/nope", 404, { kind: "not-found", status: 404 }],
  ])("%s: the outcome, as data", async (path, status, outcome) => {
    const r = await pageData(path);
    expect(r.status).toBe(status);
    expect(r.head.outcome).toEqual(outcome);
  });

  test("a loader error: a digest and no message", async () => {
    const r = await pageData("/server-error");
    expect(r.status).toBe(500);
    expect(r.head.error).toEqual({ digest: expect.stringMatching(/^[0-9a-z]{10}$/), side: "server" });
  });

  test("a late error and a late outcome settle as lines", async () => {
    expect((await pageData("/late-error")).rest[0]).toEqual({
      route: "/late-error",
      key: "section",
      error: { digest: expect.any(String), side: "server" },
    });
    expect((await pageData("/late-not-found")).rest[0]).toEqual({
      route: "/late-not-found",
      key: "section",
      outcome: { kind: "not-found", status: 404 },
    });
  });
});

describe("HTTP hygiene", () => {
  test("HEAD answers the GET status and headers without a body", async () => {
    const res = await t.request("/forbidden", { method: "HEAD" });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe("");
  });

  test.each(["/stream", "/late-error", "/late-not-found", "/__data/late-error"])(
    "HEAD %s stops after the shell: a 200 logged as info, nothing captured",
    async (path) => {
      const captured: unknown[] = [];
      const quiet = await serveWith(FIXTURE, { capture: (error) => captured.push(error) });
      const res = await quiet.request(path, { method: "HEAD" });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("");
      const line = await logFor(quiet.logs, res);
      expect({ level: line.level, status: line.status, digest: line.digest }).toEqual({
        level: "info",
        status: 200,
        digest: undefined,
      });
      expect(captured).toEqual([]);
    },
  );

  test("HEAD on a page whose loader fails is still that failure: 500, an error line, captured once", async () => {
    const captured: unknown[] = [];
    const app = await serveWith(FIXTURE, { capture: (error) => captured.push(error) });
    const res = await app.request("/server-error", { method: "HEAD" });
    expect(res.status).toBe(500);
    expect((await logFor(app.logs, res)).level).toBe("error");
    expect(captured).toHaveLength(1);
  });

  test.each(["POST", "PUT", "DELETE", "PATCH"])("%s on a page answers 405 with Allow", async (method) => {
    const res = await t.request("/", { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });

  test("malformed percent-encoding answers 400", async () => {
    expect((await t.request("/%E0%A4%A")).status).toBe(400);
    expect((await t.request("/%")).status).toBe(400);
  });

  test("a path over 8 KiB answers 414, and the server still serves", async () => {
    expect((await t.request(`/${"a".repeat(8200)}`)).status).toBe(414);
    expect((await t.request("/")).status).toBe(200);
  });

  test("health answers 200", async () => {
    expect((await t.request("/healthz")).status).toBe(200);
  });
});
