// The smallest app (test/fixtures/minimal-app, the README's "Start your own app"), built as `bun run build`
// builds one: its binary, alone in an empty folder, serves its page and its not-found page.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { readdir } from "node:fs/promises";
import { binaryAlone, BUILD_TIMEOUT_MS, startBinary, type Alone, type RunningBinary } from "../support/binary.ts";

const MINIMAL_DIR = join(import.meta.dir, "../fixtures/minimal-app");
const MINIMAL_APP = join(MINIMAL_DIR, "app.ts");

/** A file's code without its opening comment line (the README's names the file, the fixture's says what it is). */
const code = (text: string) => text.slice(text.indexOf("\n") + 1);

let alone: Alone;
let server: RunningBinary;

beforeAll(async () => {
  alone = await binaryAlone(MINIMAL_APP);
  server = await startBinary(alone);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await server?.kill();
  await alone?.remove();
});

test("the README's smallest app is this fixture, file for file", async () => {
  const readme = await Bun.file(join(import.meta.dir, "../../README.md")).text();
  const start = readme.indexOf("## Start your own app");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const samples = [...section.matchAll(/```tsx?\n\/\/ src\/app\/([\w.]+)[^\n]*\n([\s\S]*?)```/g)].map(
    (m) => [m[1]!, m[2]!] as const,
  );
  expect(samples.map(([name]) => name).sort()).toEqual((await readdir(MINIMAL_DIR)).sort());
  for (const [name, sample] of samples) expect(code(await Bun.file(join(MINIMAL_DIR, name)).text())).toBe(sample);
});

test("the binary serves the app's page, with its loader's data", async () => {
  const res = await fetch(`${server.origin}/?name=Ada`);
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain("<h1>Hello, <!-- -->Ada</h1>");
  // The boot script imports it once the page has painted.
  expect(html).toMatch(/\(\["\/assets\/entry-client-[a-z0-9]+\.js"\]\)<\/script>/);
});

test("the binary answers an unknown path with the app's not-found page", async () => {
  const res = await fetch(`${server.origin}/no-such-page`);
  expect(res.status).toBe(404);
  expect(await res.text()).toContain("<h1>Not found</h1>");
});
