// brisk/test loads no server on import: a test that only drives Chromium or records Sentry's traffic loads
// none of the server's modules and gets no Bun plugin; the server comes with serveApp's or listenApp's call.
// Each import is watched in a fresh process, where nothing else has loaded them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../../..");
/** What the entry itself loads of src/server: its own modules, none of which reaches the rest. */
const ENTRY_MODULES = [
  "index.ts",
  "serve.ts",
  "logs.ts",
  "postgres.ts",
  "free-port.ts",
  "fake-ingest.ts",
  "browser.ts",
  "dom.tsx",
  "api-client.ts",
  "replicas.ts",
  "wait-for.ts",
].map((m) => `src/server/testing/${m}`);

interface Loaded {
  /** The modules of src/ loaded so far, relative to the project. */
  modules: string[];
  /** What a fresh image import gives: its file (Bun's own loader), or its /assets/ URL (the server's plugin). */
  image: string;
}

let images: string;
beforeAll(async () => {
  images = await mkdtemp(join(tmpdir(), "brisk-entry-"));
  // Two files, so that each import is a module of its own, loaded under the plugins of its moment.
  await Promise.all(
    ["first.svg", "second.svg"].map((name) => copyFile(join(ROOT, "test/fixtures/app/mark.svg"), join(images, name))),
  );
});
afterAll(() => rm(images, { recursive: true, force: true }));

/** In a new process: `brisk/test` imported, then the module serveApp loads, and what each left loaded. */
async function probe(): Promise<{ entry: Loaded; server: Loaded }> {
  const script = `
    const loaded = async (image) => ({
      modules: Object.keys(require.cache).filter((k) => k.startsWith(${JSON.stringify(`${ROOT}/src/`)})).map((k) => k.slice(${ROOT.length + 1})).sort(),
      image: (await import(${JSON.stringify(`${images}/`)} + image)).default,
    });
    await import("brisk/test");
    const entry = await loaded("first.svg");
    await import(${JSON.stringify(join(ROOT, "src/server/testing/served-app.ts"))});
    console.log(JSON.stringify({ entry, server: await loaded("second.svg") }));
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`the probe exited ${code}:\n${err}`);
  return JSON.parse(out);
}

test("importing brisk/test loads only its own light modules of src/server, and installs no Bun plugin", async () => {
  const { entry, server } = await probe();
  expect(entry.modules).toEqual(expect.arrayContaining(ENTRY_MODULES));
  expect(entry.modules.filter((m) => m.startsWith("src/server/") && !ENTRY_MODULES.includes(m))).toEqual([]);
  expect(entry.image).toBe(join(images, "first.svg"));
  // The same watch sees the server once serveApp's module is loaded: its modules, and the plugin it installs.
  expect(server.modules).toEqual(
    expect.arrayContaining(["src/server/create-app.ts", "src/server/app-start.ts", "src/server/pages/pages.ts"]),
  );
  expect(server.image).toMatch(/^\/assets\/second-\w+\.svg$/);
});
