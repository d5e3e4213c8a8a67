// The client build as the server loads it: files read on first request, a broken build refused at start,
// and each route's own stylesheets and code-split chunk preloaded in its pages.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../../../src/server/build/client-build.ts";
import { loadClientAssets } from "../../../src/server/assets/assets.ts";
import type { Manifest } from "../../../src/server/assets/manifest.ts";
import { serveApp, type ServedApp } from "brisk/test";
import { clientAssets, FIXTURE, FIXTURE_APP_MODULE, loadApp } from "../../support/app.ts";

const dirs: string[] = [];
let build: string;
const { routes } = await loadApp();
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "brisk-assets-build-"));
  dirs.push(dir);
  // client/ with the source maps in sourcemaps/ beside it, inside the temporary folder.
  build = join(dir, "client");
  await buildClient({ outdir: build, appModule: FIXTURE_APP_MODULE });
});
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function copyOfBuild(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "brisk-assets-"));
  dirs.push(dir);
  await cp(build, dir, { recursive: true });
  return dir;
}

test("a build with a file missing is refused at load, naming the file", async () => {
  const dir = await copyOfBuild();
  const { manifest } = loadClientAssets(routes, dir);
  await rm(join(dir, manifest.entry));
  expect(() => loadClientAssets(routes, dir)).toThrow(manifest.entry);
});

test("every file of the build is served from memory once read, compressed copies included", async () => {
  const dir = await copyOfBuild();
  const assets = loadClientAssets(routes, dir);
  const entry = assets.get(assets.manifest.entry)!;
  expect(entry.type).toStartWith("text/javascript");
  expect(entry.body.byteLength).toBeGreaterThan(1000);
  expect(entry.br?.byteLength).toBeGreaterThan(0);
  // Read once: removing the folder afterwards changes nothing for a file already served.
  await rm(dir, { recursive: true, force: true });
  expect(assets.get(assets.manifest.entry)).toBe(entry);
  expect(assets.get("no-such-file.js")).toBeUndefined();
});

test.each([
  ["chunk", (m: Manifest) => delete m.lazyPages["lazy.tsx"], "the chunk of lazy.tsx"],
  ["stylesheet", (m: Manifest) => delete m.styles["lazy.css"], "stylesheet lazy.css"],
] as const)("a build without a route's %s is refused at load, naming the route", async (_, remove, named) => {
  const dir = await copyOfBuild();
  const path = join(dir, "manifest.json");
  const manifest = (await Bun.file(path).json()) as Manifest;
  remove(manifest);
  await Bun.write(path, JSON.stringify(manifest));
  expect(() => loadClientAssets(routes, dir)).toThrow(`route /lazy: ${named} is not in the client build`);
});

test("a code-split route's page preloads its chunk under the page's nonce, and other pages do not", async () => {
  const { request } = await serveApp(FIXTURE);
  const { manifest } = await clientAssets();
  const chunk = `/assets/${manifest.chunks["test/fixtures/app/lazy.tsx"]}`;
  const preloads = async (path: string) => {
    const res = await request(path);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy")!)![1];
    const html = await res.text();
    return { nonce, links: html.match(/<link rel="modulepreload"[^>]*>/g) ?? [] };
  };
  const lazy = await preloads("/lazy");
  expect(lazy.links.filter((l) => l.includes(`href="${chunk}"`))).toEqual([
    expect.stringContaining(`nonce="${lazy.nonce}"`),
  ]);
  expect((await preloads("/")).links.join("\n")).not.toContain(chunk);
});

test("an asset's coding follows Accept-Encoding's tokens, case and q-values", async () => {
  const t = await serveApp(FIXTURE);
  const assets = await clientAssets();
  const codingFor = async (accept: string) =>
    (await t.request(`/assets/${assets.manifest.entry}`, { headers: { "accept-encoding": accept } })).headers.get(
      "content-encoding",
    );
  expect(await codingFor("gzip, deflate, br")).toBe("br");
  expect(await codingFor("br;q=0, gzip")).toBe("gzip");
  expect(await codingFor("br;q=0")).toBeNull();
  expect(await codingFor("BR")).toBe("br");
  expect(await codingFor("gzip;q=0.9, br;q=0.1")).toBe("gzip");
});

describe("an asset's validators: each coding its own ETag", () => {
  let t: ServedApp;
  let entry: string;
  beforeAll(async () => {
    t = await serveApp(FIXTURE);
    entry = `/assets/${(await clientAssets()).manifest.entry}`;
  });
  const asEncoded = (accept: string, headers: Record<string, string> = {}, method = "GET") =>
    t.request(entry, { method, headers: { "accept-encoding": accept, ...headers } });

  test("the brotli, gzip and uncompressed answers of one file have three ETags", async () => {
    const answers = await Promise.all(["br", "gzip", "identity"].map((accept) => asEncoded(accept)));
    expect(answers.map((res) => res.headers.get("content-encoding"))).toEqual(["br", "gzip", null]);
    const tags = answers.map((res) => res.headers.get("etag"));
    for (const tag of tags) expect(tag).toMatch(/^"[0-9a-z]+"$/);
    expect(new Set(tags).size).toBe(3);
  });

  test("If-None-Match with the tag of the coding asked for: 304, GET or HEAD; another coding's tag: that coding's answer", async () => {
    const [br, gzip] = await Promise.all([asEncoded("br"), asEncoded("gzip")]);
    const brTag = br.headers.get("etag")!;
    for (const method of ["GET", "HEAD"]) {
      const again = await asEncoded("br", { "if-none-match": brTag }, method);
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(brTag);
      expect(again.headers.get("vary")).toBe("Accept-Encoding");
    }
    const other = await asEncoded("gzip", { "if-none-match": brTag });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).toBe(gzip.headers.get("etag"));
    expect(Bun.gunzipSync(await other.bytes()).byteLength).toBe(
      (await (await asEncoded("identity")).bytes()).byteLength,
    );
  });

  test("If-Match: 412 for a tag not current (another coding's too), the file for its own tag or `*`; HEAD alike", async () => {
    const gzipTag = (await asEncoded("gzip")).headers.get("etag")!;
    for (const method of ["GET", "HEAD"]) {
      expect((await asEncoded("br", { "if-match": '"nope"' }, method)).status).toBe(412);
      expect((await asEncoded("br", { "if-match": gzipTag }, method)).status).toBe(412);
      expect((await asEncoded("gzip", { "if-match": gzipTag }, method)).status).toBe(200);
      expect((await asEncoded("br", { "if-match": "*" }, method)).status).toBe(200);
    }
  });
});
