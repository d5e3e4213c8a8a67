// The build's prerender step starts the app (its server.start: a database) only when a route is prerendered:
// a build of an app that prerenders nothing never reaches the app's database, and still stores its not-found page.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../../../src/server/build/client-build.ts";
import { STARTED_FILE } from "../../fixtures/started-app/server.server.ts";

const ROOT = join(import.meta.dir, "../../..");
const APP = join(import.meta.dir, "../../fixtures/started-app/app.ts");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "brisk-prerender-start-"));
  await buildClient({ outdir: join(dir, "client"), mode: "production", appModule: APP });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** scripts/prerender.ts as `bun run build` runs it, with a DATA_DIR of its own; and whether the app started. */
async function prerender(appModule: string, dataDir: string) {
  const proc = Bun.spawnSync(["bun", join(ROOT, "scripts/prerender.ts"), join(dir, "client"), appModule], {
    cwd: ROOT,
    env: { ...Bun.env, NODE_ENV: "production", DATA_DIR: join(dir, dataDir) },
  });
  const started = await Bun.file(join(dir, dataDir, STARTED_FILE)).exists();
  return { code: proc.exitCode, out: proc.stdout.toString().trim(), err: proc.stderr.toString(), started };
}

test("with no route prerendered, the build stores the not-found page without starting the app", async () => {
  expect(await prerender(APP, "data-none")).toEqual({
    code: 0,
    out: "prerendered no routes and the not-found page",
    err: "",
    started: false,
  });
});

test("with a route prerendered, the build starts the app before its loader runs", async () => {
  const prerendered = join(import.meta.dir, "../../fixtures/started-app/prerendered.tsx");
  expect(await prerender(prerendered, "data-some")).toMatchObject({
    code: 0,
    out: "prerendered /stored and the not-found page",
    started: true,
  });
});
