// The client build as the server loads it: files read on first request, a broken build refused at start.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../../scripts/build-client.ts";
import { loadClientAssets } from "../../src/server/assets.ts";

const dirs: string[] = [];
let build: string;
beforeAll(async () => {
  build = await mkdtemp(join(tmpdir(), "brisk-assets-build-"));
  dirs.push(build);
  await buildClient({ outdir: build });
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
  const { manifest } = loadClientAssets(dir);
  await rm(join(dir, manifest.entry));
  expect(() => loadClientAssets(dir)).toThrow(manifest.entry);
});

test("every file of the build is served from memory once read, compressed copies included", async () => {
  const dir = await copyOfBuild();
  const assets = loadClientAssets(dir);
  const entry = assets.get(assets.manifest.entry)!;
  expect(entry.type).toStartWith("text/javascript");
  expect(entry.body.byteLength).toBeGreaterThan(1000);
  expect(entry.br?.byteLength).toBeGreaterThan(0);
  // Read once: removing the folder afterwards changes nothing for a file already served.
  await rm(dir, { recursive: true, force: true });
  expect(assets.get(assets.manifest.entry)).toBe(entry);
  expect(assets.get("no-such-file.js")).toBeUndefined();
});
