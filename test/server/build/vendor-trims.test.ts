// The browser build's two trims of vendor code: wouter without its own browser location (Brisk hands the Router
// its own hooks), React's scheduler with its clock assigned once (plain functions, no namespace object).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { withOneClockExport } from "../../../src/server/build/scheduler-exports.ts";
import { wouterWithoutBrowserLocation } from "../../../src/server/build/wouter-location.ts";
import { clientAssets } from "../../support/app.ts";

const SCHEDULER = Bun.resolveSync("scheduler/cjs/scheduler.production.js", resolve(import.meta.dir, "../../.."));
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const productionScripts = async () => {
  const assets = await clientAssets("production");
  return assets.manifest.files
    .filter((f) => f.endsWith(".js"))
    .map((f) => new TextDecoder().decode(assets.get(f)!.body));
};

describe("wouter without its browser location", () => {
  test("the production client neither holds nor patches history (wouter's own marker is gone)", async () => {
    expect((await productionScripts()).filter((code) => code.includes("wouter_v3"))).toEqual([]);
  });

  test("a wouter that imports its browser location otherwise fails the build", async () => {
    const dir = await mkdtemp(join(tmpdir(), "brisk-wouter-location-"));
    dirs.push(dir);
    const index = join(dir, "node_modules/wouter/src/index.js");
    await Bun.write(
      index,
      'import { useBrowserLocation } from "./use-browser-location.js";\nexport const hook = useBrowserLocation;\n',
    );
    await Bun.write(
      join(dir, "node_modules/wouter/src/use-browser-location.js"),
      "export const useBrowserLocation = () => [];\n",
    );
    await Bun.write(join(dir, "entry.js"), `import { hook } from ${JSON.stringify(index)};\nconsole.log(hook);\n`);
    const result = await Bun.build({
      entrypoints: [join(dir, "entry.js")],
      plugins: [wouterWithoutBrowserLocation],
      throw: false,
    });
    expect(result.success).toBe(false);
    expect(result.logs.map(String).join("\n")).toContain("no longer imports its browser location");
  });
});

describe("the scheduler's clock assigned once", () => {
  test("the rewritten module exports the same clock and schedules work with it", async () => {
    const exports: Record<string, unknown> = {};
    new Function("exports", withOneClockExport(await Bun.file(SCHEDULER).text(), SCHEDULER))(exports);
    const now = exports.unstable_now as () => number;
    expect(Math.abs(now() - performance.now())).toBeLessThan(50);
    const ran = Promise.withResolvers<void>();
    (exports.unstable_scheduleCallback as (priority: number, work: () => void) => unknown)(3, ran.resolve);
    await ran.promise;
  });

  test("a scheduler that defines its clock otherwise fails the build", () => {
    expect(() => withOneClockExport("exports.unstable_now = Date.now;\n", "scheduler.js")).toThrow(
      "no longer defines unstable_now",
    );
  });

  test("the production client keeps no namespace object of the scheduler's exports", async () => {
    expect((await productionScripts()).filter((code) => /unstable_now:\(\)=>/.test(code))).toEqual([]);
  });
});
