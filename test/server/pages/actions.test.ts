// Route actions through the real app: a form post runs its route's action (documents and page data alike),
// refused cross-site before the body is read, bodies bounded while read, 303 after a post, 422 with the
// visitor's values, outcomes and errors as for loaders, and the headers and cookies it sets on every answer.
import { beforeAll, describe, expect, test } from "bun:test";
import { BUILD_HEADER } from "../../../src/runtime/page-payload.ts";
import { BODY_READS_AT_ONCE } from "../../../src/server/bodies/body-reads.ts";
import { written } from "../../fixtures/app/loaders.server.ts";
import { listenApp, logFor, serveApp, type ServedApp } from "brisk/test";
import { FIXTURE, serveWith } from "../../support/app.ts";
import { bootState } from "../../support/page-state.ts";
import { rawExchange } from "../../support/raw-http.ts";

let t: ServedApp;
const captured: unknown[] = [];
beforeAll(async () => {
  t = await serveWith(FIXTURE, { capture: (e) => void captured.push(e) });
});

const SAME_ORIGIN = { origin: "http://localhost", "sec-fetch-site": "same-origin" };
const form = (fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields).toString(),
});

/** A urlencoded post whose body streams, with no Content-Length. */
const streamedPost = (body: ReadableStream<Uint8Array>, headers: Record<string, string>): RequestInit =>
  ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
    duplex: "half",
  }) as RequestInit;

async function pageData(res: Response) {
  const lines = (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  return lines[0];
}

describe("a document post (JavaScript off)", () => {
  test("a valid post runs the action: 303 to the page, its cookie with the defaults and its header", async () => {
    const before = written.length;
    const res = await t.request("/form", form({ text: "first" }));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/form");
    expect(res.headers.get("x-action")).toBe("ran");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("visitor="));
    expect(cookie).toBeDefined();
    expect(cookie!.toLowerCase()).toContain("httponly");
    expect(cookie!.toLowerCase()).toContain("samesite=lax");
    expect(cookie!.toLowerCase()).toContain("path=/");
    expect(cookie!.toLowerCase()).toContain("secure");
    expect(written.slice(before)).toEqual(["first"]);
    expect(await logFor(t.logs, res)).toMatchObject({ level: "info", method: "POST", status: 303, route: "/form" });
  });

  test("data with a status: the page again with that status, the action's data and the loader's", async () => {
    const res = await t.request("/form", form({ text: "" }));
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain('<p id="error">text is required</p>');
    expect(bootState(html).page.actionData).toEqual({ error: "text is required", text: "" });
    expect(bootState(html).page.levels[0]!.data).toMatchObject({ count: expect.any(Number) });
  });

  test("the page the action answers reads the cookies it set", async () => {
    const res = await t.request("/form", form({ text: "kept", stay: "1" }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<p id="visitor">kept</p>');
    expect(html).toContain('<p id="saved">saved <!-- -->kept</p>');
  });

  test("an error is a 500 with a digest, logged with phase action and captured once", async () => {
    const before = captured.length;
    const res = await t.request("/form", form({ text: "boom" }));
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).not.toContain("Fixture failure in an action");
    const digest = /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)?.[1];
    expect(await logFor(t.logs, res)).toMatchObject({ level: "error", status: 500, phase: "action", digest });
    expect(captured.length - before).toBe(1);
  });

  test("an outcome from an action answers its status and page", async () => {
    const res = await t.request("/form", form({ text: "missing" }));
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page not found");
  });

  test("multipart, with a file; and JSON", async () => {
    const body = new FormData();
    body.set("file", new File(["hello file"], "note.txt", { type: "text/plain" }));
    const upload = await t.request("/upload", { method: "POST", headers: SAME_ORIGIN, body });
    expect(upload.status).toBe(200);
    expect(bootState(await upload.text()).page.actionData).toEqual({ name: "note.txt", size: 10, text: "hello file" });
    const json = await t.request("/form", {
      method: "POST",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ text: "" }),
    });
    expect(json.status).toBe(422);
  });
});

describe("methods", () => {
  test("a route without an action: POST is 405 with Allow: GET, HEAD", async () => {
    const res = await t.request("/search", form({ q: "x" }));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });

  test.each(["PUT", "DELETE", "PATCH"])(
    "%s on a route with an action: 405 with Allow: GET, HEAD, POST",
    async (method) => {
      const res = await t.request("/form", { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    },
  );
});

describe("cross-site posts are refused before the action runs and before the body is read", () => {
  test.each([
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["a foreign Referer and no Origin", { referer: "https://evil.example/page" }],
    [
      "a forwarded host without TRUST_PROXY",
      { origin: "https://shop.example", "x-forwarded-host": "shop.example", "x-forwarded-proto": "https" },
    ],
    // The tunnel takes this (host and port only); a form keeps the whole origin: behind TLS it needs TRUST_PROXY.
    ["this host on another scheme", { origin: "https://localhost" }],
  ])("%s: 403, nothing written", async (_, headers) => {
    const before = written.length;
    let pulled = false;
    // A body that records being read (no read ahead: highWaterMark 0): a refusal must come before it.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new TextEncoder().encode("text=evil"));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const res = await t.request("/form", streamedPost(body, headers));
    expect(res.status).toBe(403);
    expect(written.length).toBe(before);
    expect(pulled).toBe(false);
  });

  test("with TRUST_PROXY the forwarded origin is this site's", async () => {
    const proxied = await serveApp({ ...FIXTURE, env: { TRUST_PROXY: "true" } });
    const res = await proxied.request(
      "/form",
      form(
        { text: "proxied" },
        { origin: "https://shop.example", "x-forwarded-host": "shop.example", "x-forwarded-proto": "https" },
      ),
    );
    expect(res.status).toBe(303);
  });

  test("a post with neither Origin nor Referer (curl, a server) goes through", async () => {
    const res = await t.request("/form", form({ text: "from-curl" }, {}));
    expect(res.status).toBe(303);
  });
});

describe("bodies", () => {
  test("over ACTION_MAX_BYTES by Content-Length: 413, nothing written", async () => {
    const small = await serveApp({ ...FIXTURE, env: { ACTION_MAX_BYTES: "1024" } });
    const before = written.length;
    const res = await small.request("/form", form({ text: "x".repeat(2000) }));
    expect(res.status).toBe(413);
    expect(written.length).toBe(before);
  });

  test("over ACTION_MAX_BYTES while streaming, with no Content-Length: 413 without reading the rest", async () => {
    const small = await serveApp({ ...FIXTURE, env: { ACTION_MAX_BYTES: "1024" } });
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        chunks++;
        if (chunks > 1000) return controller.close();
        controller.enqueue(new TextEncoder().encode(chunks === 1 ? "text=" : "x".repeat(512)));
      },
    });
    const res = await small.request("/form", streamedPost(body, SAME_ORIGIN));
    expect(res.status).toBe(413);
    expect(chunks).toBeLessThan(10);
  });

  test("bodies read at once are bounded: past the slots a post is 429 with Retry-After, its body unread", async () => {
    // Each held post from a visitor of its own (behind a trusted proxy), so no one visitor's share is what refuses.
    const proxied = await serveApp({ ...FIXTURE, env: { TRUST_PROXY: "true" } });
    const visitor = (i: number) => ({ ...SAME_ORIGIN, "x-forwarded-for": `203.0.113.${i}` });
    const enders: Array<() => void> = [];
    /** One per held post: its body is being read, so it holds a slot (taken before the first read). */
    const reading: Array<Promise<void>> = [];
    const hanging = () => {
      const read = Promise.withResolvers<void>();
      reading.push(read.promise);
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("text="));
          enders.push(() => controller.close());
        },
        // Asked for more once the first bytes have been read.
        pull: () => read.resolve(),
      });
    };
    const held = Array.from({ length: BODY_READS_AT_ONCE }, (_, i) =>
      proxied.request("/form", streamedPost(hanging(), visitor(i))),
    );
    await Promise.all(reading);
    let pulled = false;
    const extra = new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) }, { highWaterMark: 0 });
    const refused = await proxied.request("/form", streamedPost(extra, visitor(BODY_READS_AT_ONCE)));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(pulled).toBe(false);
    for (const end of enders) end();
    // Each held post ends as an empty text: 422, and the slots are free again.
    expect(new Set((await Promise.all(held)).map((r) => r.status))).toEqual(new Set([422]));
    expect((await proxied.request("/form", form({ text: "" }))).status).toBe(422);
  });

  test("no body and no type is an empty form: a page's action, through page data too, and a route without a page", async () => {
    const page = await t.request("/form", { method: "POST", headers: SAME_ORIGIN });
    expect(page.status).toBe(422);
    expect(bootState(await page.text()).page.actionData).toEqual({ error: "text is required", text: "" });
    const data = await t.request("/__data/form", { method: "POST", headers: SAME_ORIGIN });
    expect(data.status).toBe(422);
    expect((await pageData(data)).actionData).toEqual({ error: "text is required", text: "" });
    const like = await t.request("/shop/items/31/like", { method: "POST", headers: SAME_ORIGIN });
    expect(like.status).toBe(303);
    expect(like.headers.get("location")).toBe("/shop/items/31");
    // Still refused: cross-site, and a body whose type is not named.
    expect((await t.request("/form", { method: "POST", headers: { origin: "https://evil.example" } })).status).toBe(
      403,
    );
    expect(
      (await t.request("/form", { method: "POST", headers: SAME_ORIGIN, body: new TextEncoder().encode("text=x") }))
        .status,
    ).toBe(415);
  });

  test("over a socket, a bodyless post as fetch sends it (Content-Length: 0) and as curl -X POST does (no length) runs the action", async () => {
    const listening = await listenApp(FIXTURE);
    try {
      const fetched = await fetch(`${listening.origin}/shop/items/32/like`, { method: "POST", redirect: "manual" });
      expect(fetched.status).toBe(303);
      const port = Number(new URL(listening.origin).port);
      const curl = await rawExchange(
        port,
        `POST /form HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: */*\r\nConnection: close\r\n\r\n`,
      );
      expect(curl.status).toBe(422);
      expect(new TextDecoder().decode(curl.body)).toContain("text is required");
    } finally {
      await listening.stop();
    }
  });

  test("another content type is 415; malformed JSON is 400", async () => {
    const text = await t.request("/form", {
      method: "POST",
      headers: { ...SAME_ORIGIN, "content-type": "text/plain" },
      body: "text=x",
    });
    expect(text.status).toBe(415);
    const json = await t.request("/form", {
      method: "POST",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      body: "{bad",
    });
    expect(json.status).toBe(400);
  });
});

describe("a post through page data (JavaScript on)", () => {
  test("a redirect is data, with the cookie on the answer", async () => {
    const res = await t.request("/__data/form", form({ text: "via-data" }));
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("visitor=via-data"))).toBe(true);
    expect((await pageData(res)).outcome).toEqual({ kind: "redirect", location: "/form", status: 303 });
  });

  test("422 carries the action data and the page's fresh loader data", async () => {
    const res = await t.request("/__data/form", form({ text: "" }));
    expect(res.status).toBe(422);
    const head = await pageData(res);
    expect(head.actionData).toEqual({ error: "text is required", text: "" });
    expect(head.levels[0]!.data.count).toBe(written.length);
  });

  test("from another page (a fetcher's post, _keep=all): the action's value, and no loader runs after it", async () => {
    const loads = async () => (await pageData(await t.request("/__data/fetchers"))).levels[0]!.data.loads as number;
    const before = await loads();
    const res = await t.request("/__data/fetchers?_keep=all", form({ intent: "like" }));
    expect(res.status).toBe(200);
    const head = await pageData(res);
    expect(head.actionData).toEqual({ likes: expect.any(Number) });
    expect(head.levels).toEqual([{ id: "/fetchers", kept: true }]);
    // The action's URL is the page's own: the hint is the framework's.
    expect(head.search).toBe("");
    // Only the load just above ran: the post's answer loaded nothing.
    expect(await loads()).toBe(before + 1);
    // Any other keep on a post loads every level again, as after any action.
    const again = await pageData(await t.request("/__data/fetchers?_keep=1", form({ intent: "like" })));
    expect(again.levels[0]).toEqual({ id: "/fetchers", data: { loads: before + 2, likes: again.actionData.likes } });
  });

  test("a post from another build is refused (409) before the action runs", async () => {
    const before = written.length;
    const res = await t.request(
      "/__data/form",
      form({ text: "stale" }, { ...SAME_ORIGIN, [BUILD_HEADER]: "another-build" }),
    );
    expect(res.status).toBe(409);
    expect(written.length).toBe(before);
  });
});

test("a loader's Cache-Control reaches the document and its page data", async () => {
  expect((await t.request("/cached")).headers.get("cache-control")).toBe("public, max-age=60");
  expect((await t.request("/__data/cached")).headers.get("cache-control")).toBe("public, max-age=60");
  // An outcome or error page never is cached, whatever the loader said.
  expect((await t.request("/form", form({ text: "missing" }))).headers.get("cache-control")).toBe("no-store");
});
