// The build's prerender step (scripts/prerender.ts, run by `bun run build`): the pages are rendered at build
// time into prerendered.json beside the client build, and a server started on that build serves them from its
// first request without running their loaders; a route that cannot be prerendered fails the build, named.
import { afterAll, beforeAll, expect, setSystemTime, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../../../src/server/build/client-build.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { loadClientAssets } from "../../../src/server/assets/assets.ts";
import { builtPages, PRERENDERED_FILE } from "../../../src/server/prerender/built-pages.ts";
import { prerenderState } from "../../fixtures/app/loaders.server.ts";
import { FIXTURE_APP_MODULE, FIXTURE_PUBLIC_DIR, loadApp, testConfig, testDataDir } from "../../support/app.ts";
import { bootState } from "../../support/page-state.ts";
import { until } from "../../support/until.ts";

const ROOT = join(import.meta.dir, "../../..");
let dir: string;
let clientDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "brisk-prerender-build-"));
  clientDir = join(dir, "client");
  await buildClient({
    outdir: clientDir,
    mode: "production",
    appModule: FIXTURE_APP_MODULE,
    publicDir: FIXTURE_PUBLIC_DIR,
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function prerender(appModule: string) {
  const proc = Bun.spawnSync(["bun", join(ROOT, "scripts/prerender.ts"), clientDir, appModule], {
    cwd: ROOT,
    env: { ...Bun.env, NODE_ENV: "production", DATA_DIR: testDataDir() },
  });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

test("a route that reads cookies and is marked prerender fails the build, naming the route", async () => {
  const { code, err } = prerender(join(import.meta.dir, "../../fixtures/app/unprerenderable.ts"));
  expect(code).toBe(1);
  expect(err).toContain("route /per-visitor is marked prerender, but its loader reads cookies");
  expect(await Bun.file(join(clientDir, PRERENDERED_FILE)).exists()).toBe(false);
});

test("the pages rendered at build time are served from the first request, their loaders never run", async () => {
  const { code, out } = prerender(FIXTURE_APP_MODULE);
  expect(code).toBe(0);
  expect(out).toContain("prerendered /prerendered and the not-found page");
  const assets = loadClientAssets((await loadApp()).routes, clientDir);
  expect(Object.keys(builtPages(assets)!.routes)).toEqual(["/prerendered"]);
  const renders = prerenderState.renders;
  // Not even started: a server on a build that prerendered has nothing left to render.
  const app = createApp(testConfig(), await loadApp(), { assets, log: () => {} });
  const page = await app.handle(new Request("http://localhost/prerendered"));
  expect(page.status).toBe(200);
  expect(page.headers.get("etag")).toBe(`W/${builtPages(assets)!.routes["/prerendered"]!.document.etag}`);
  expect(await page.text()).toContain("Render <!-- -->1");
  const data = await app.handle(new Request("http://localhost/__data/prerendered"));
  expect(JSON.parse(await data.text())).toMatchObject({
    route: "/prerendered",
    levels: [{ id: "/prerendered", data: { render: 1 } }],
  });
  const missing = await app.handle(new Request("http://localhost/nowhere"));
  expect(missing.status).toBe(404);
  expect(prerenderState.renders).toBe(renders);
});

test("a page from the build ages from the build: past its revalidate age it is rendered again, here", async () => {
  const assets = loadClientAssets((await loadApp()).routes, clientDir);
  const built = builtPages(assets)!.routes["/prerendered"]!.document;
  const app = createApp(testConfig(), await loadApp(), { assets, log: () => {} });
  const renders = prerenderState.renders;
  // The fixture route revalidates after 60 s: one second short of it, the build's page stays.
  setSystemTime(built.renderedAt + 59_000);
  await app.handle(new Request("http://localhost/prerendered"));
  expect(prerenderState.renders).toBe(renders);
  setSystemTime(built.renderedAt + 61_000);
  const stale = await (await app.handle(new Request("http://localhost/prerendered"))).text();
  expect(stale).toContain("Render <!-- -->1");
  await until(() => prerenderState.renders > renders, "the re-render, in the background");
  expect(prerenderState.renders).toBe(renders + 1);
  setSystemTime();
});

test("a build's pages carry the serving server's client configuration, not the build's (Sentry set at run time)", async () => {
  const assets = loadClientAssets((await loadApp()).routes, clientDir);
  const app = createApp(testConfig({ SENTRY_DSN: "https://public@sentry.example.com/42" }), await loadApp(), {
    assets,
    log: () => {},
  });
  const html = await (await app.handle(new Request("http://localhost/prerendered"))).text();
  expect(bootState(html).config).toMatchObject({
    mode: "production",
    sentry: { dsn: "https://public@sentry.example.com/42" },
  });
  const plain = createApp(testConfig(), await loadApp(), { assets, log: () => {} });
  expect(bootState(await (await plain.handle(new Request("http://localhost/prerendered"))).text()).config).toEqual({
    mode: "production",
  });
});

test("a build's pages are not taken by another client build", async () => {
  const assets = loadClientAssets((await loadApp()).routes, clientDir);
  await Bun.write(join(clientDir, PRERENDERED_FILE), JSON.stringify({ ...builtPages(assets), buildId: "another" }));
  expect(builtPages(loadClientAssets((await loadApp()).routes, clientDir))).toBeUndefined();
});
