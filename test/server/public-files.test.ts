// The app's public/ folder at the site root: types, validators, 304s, HEAD, no way out of the folder, and
// development picking up a new file without a restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/server/create-app.ts";
import { livePublicFiles } from "../../src/server/http/public-files.ts";
import { clientAssets, loadApp, testApp, testConfig, type TestApp } from "../support/app.ts";
import { rawExchange } from "../support/raw-http.ts";

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});

describe("public files from the build", () => {
  test("served at the root with their type, ETag, Last-Modified and a revalidating Cache-Control", async () => {
    const res = await t.request("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain;charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-z]+"$/);
    expect(Date.parse(res.headers.get("last-modified")!)).not.toBeNaN();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe("User-agent: *\nAllow: /\n");
    const nested = await t.request("/docs/info.json");
    expect(nested.headers.get("content-type")).toBe("application/json;charset=utf-8");
  });

  test("304 on a matching If-None-Match, or If-Modified-Since not older than the file", async () => {
    const first = await t.request("/robots.txt");
    const etag = first.headers.get("etag")!;
    const byTag = await t.request("/robots.txt", { headers: { "if-none-match": `"other", ${etag}` } });
    expect(byTag.status).toBe(304);
    expect(await byTag.text()).toBe("");
    const byDate = await t.request("/robots.txt", { headers: { "if-modified-since": first.headers.get("last-modified")! } });
    expect(byDate.status).toBe(304);
    const stale = await t.request("/robots.txt", { headers: { "if-none-match": '"other"' } });
    expect(stale.status).toBe(200);
  });

  test("HEAD has the headers and no body", async () => {
    const res = await t.request("/robots.txt", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeTruthy();
    expect(await res.text()).toBe("");
  });

  test("no path leaves the folder: each is the not-found page", async () => {
    // A real socket: fetch would resolve the dots before sending.
    const app = createApp(testConfig(), await loadApp(), { assets: await clientAssets(), log: () => {} });
    app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const targets = ["/../package.json", "/docs/../../package.json", "/%2e%2e/package.json", "/docs/%2e%2e/%2e%2e/package.json", "/..%2fpackage.json", "//etc/passwd", "/docs"];
      for (const target of targets) {
        const raw = await rawExchange(app.server!.port!, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
        expect({ target, status: raw.status }).toEqual({ target, status: 404 });
        expect(new TextDecoder().decode(raw.body)).not.toContain('"name": "brisk"');
      }
    } finally {
      await app.stop(true);
    }
  });
});

describe("public files in development", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "brisk-public-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("a file added or changed shows at once, with a new ETag", async () => {
    const app = createApp(testConfig(), await loadApp(), { assets: await clientAssets(), publicFiles: livePublicFiles(dir), log: () => {} });
    const get = () => app.handle(new Request("http://localhost/new.txt"));
    expect((await get()).status).toBe(404);
    await writeFile(join(dir, "new.txt"), "one");
    const first = await get();
    expect(await first.text()).toBe("one");
    await writeFile(join(dir, "new.txt"), "two");
    await utimes(join(dir, "new.txt"), new Date(), new Date(Date.now() + 5_000));
    const second = await get();
    expect(await second.text()).toBe("two");
    expect(second.headers.get("etag")).not.toBe(first.headers.get("etag"));
  });
});
