// critical-js.ts: `NODE_ENV=production bun bench/critical-js.ts [app module]`: builds the app's client (the
// project's `#app` when none is named) and prints what a first visit's critical path weighs, gzip -9: the
// entry and the chunks it preloads, then the navigation chunk fetched after hydration.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { buildClient } from "../src/server/build/client-build.ts";
import type { Manifest } from "../src/server/assets/manifest.ts";

const NAVIGATION_MODULE = "src/runtime/browser/navigate.ts";

const outdir = await mkdtemp(join(tmpdir(), "brisk-critical-js-"));
try {
  await buildClient({ outdir, appModule: Bun.argv[2] });
  const manifest = JSON.parse(await readFile(join(outdir, "manifest.json"), "utf8")) as Manifest;
  const gzipped = async (file: string) => gzipSync(await readFile(join(outdir, file)), { level: 9 }).byteLength;
  let critical = 0;
  for (const file of [manifest.entry, ...manifest.preload]) {
    const bytes = await gzipped(file);
    critical += bytes;
    console.log(`${file}: ${bytes} B gzip`);
  }
  console.log(`critical path: ${critical} B gzip`);
  const navigation = manifest.chunks[NAVIGATION_MODULE];
  if (navigation) console.log(`navigation chunk: ${await gzipped(navigation)} B gzip`);
} finally {
  await rm(outdir, { recursive: true, force: true });
}
