// Small app stylesheets go into the page's head with the response's nonce; large ones and route ones stay links.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { routeTree } from "../../../src/runtime/route-tree.ts";
import { buildClient } from "../../../src/server/build/client-build.ts";
import { INLINE_STYLE_MAX_BYTES, loadClientAssets } from "../../../src/server/assets/assets.ts";
import type { Manifest } from "../../../src/server/assets/manifest.ts";
import { serveApp, type ServedApp } from "brisk/test";
import { FIXTURE, FIXTURE_APP_MODULE, loadApp } from "../../support/app.ts";
import { bootState } from "../../support/page-state.ts";

let t: ServedApp;
let build: string;
const dirs: string[] = [];
const { routes } = await loadApp();
beforeAll(async () => {
  t = await serveApp(FIXTURE);
  build = await mkdtemp(join(tmpdir(), "brisk-inline-build-"));
  dirs.push(build);
  await buildClient({ outdir: build, appModule: FIXTURE_APP_MODULE });
});
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const bootAssets = (html: string): { css: string[]; inline?: string[] } => bootState(html).page.assets;

const nonceOf = (res: Response) =>
  /script-src 'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

describe("a page", () => {
  test("carries the app stylesheet inline, with the response's nonce, which style-src allows", async () => {
    const res = await t.request("/");
    const html = await res.text();
    const nonce = nonceOf(res)!;
    expect(res.headers.get("content-security-policy")).toContain(`style-src 'self' 'nonce-${nonce}';`);
    const [href, ...more] = bootAssets(html).inline ?? [];
    expect(href).toMatch(/^\/assets\/styles-[a-z0-9]+\.css$/);
    expect(more).toEqual([]);
    const css = await (await t.request(href!)).text();
    expect(html).toContain(`<style nonce="${nonce}" data-precedence="brisk-inline" data-href="${href}">${css}</style>`);
    expect(html).not.toContain(`<link rel="stylesheet" href="${href}"`);
    expect(bootAssets(html).css).not.toContain(href);
  });

  test("a route's stylesheet stays a link, after the inlined one in the cascade", async () => {
    const html = await (await t.request("/lazy")).text();
    const { css, inline } = bootAssets(html);
    expect(css).toHaveLength(1);
    const style = html.indexOf(`data-href="${inline![0]}"`);
    const link = html.indexOf(`<link rel="stylesheet" href="${css[0]}" data-precedence="brisk"/>`);
    expect(style).toBeGreaterThan(0);
    expect(link).toBeGreaterThan(style);
  });

  test("page data names the inlined stylesheets apart from those to load", async () => {
    const head = JSON.parse((await (await t.request("/__data/lazy")).text()).split("\n")[0]!);
    expect(head.assets.inline).toHaveLength(1);
    expect(head.assets.css).not.toContain(head.assets.inline[0]);
  });
});

describe("which stylesheets are inlined", () => {
  /** A copy of the fixture build whose app stylesheets are `sizes` (bytes each), in that order. */
  async function buildWith(sizes: number[], mode: Manifest["mode"] = "production"): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "brisk-inline-"));
    dirs.push(dir);
    await cp(build, dir, { recursive: true });
    const manifest = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as Manifest;
    const names = sizes.map((_, i) => `app-${i}.css`);
    await Promise.all(names.map((name, i) => writeFile(join(dir, name), `p{}${" ".repeat(sizes[i]! - 3)}`)));
    const edited: Manifest = { ...manifest, mode, css: names, files: [...manifest.files, ...names] };
    await writeFile(join(dir, "manifest.json"), JSON.stringify(edited));
    return dir;
  }

  test(`those up to ${INLINE_STYLE_MAX_BYTES} bytes before the first larger one; it and all after it stay links`, async () => {
    const assets = loadClientAssets(
      routes,
      await buildWith([100, INLINE_STYLE_MAX_BYTES, INLINE_STYLE_MAX_BYTES + 1, 100]),
    );
    const page = assets.forMatch(routeTree(routes).match("/"));
    expect(page.inline).toEqual(["/assets/app-0.css", "/assets/app-1.css"]);
    expect(page.css).toEqual(["/assets/app-2.css", "/assets/app-3.css"]);
    expect(assets.inlineStyles?.get("/assets/app-1.css")).toHaveLength(INLINE_STYLE_MAX_BYTES);
  });

  test("none in a development build: the dev server swaps linked stylesheets", async () => {
    const page = loadClientAssets(routes, await buildWith([100], "development")).forMatch(routeTree(routes).match("/"));
    expect(page.inline).toBeUndefined();
    expect(page.css).toEqual(["/assets/app-0.css"]);
  });
});
