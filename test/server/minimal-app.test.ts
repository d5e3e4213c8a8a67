// The smallest app (test/fixtures/minimal-app, the README's "Start your own app"), built as `bun run build`
// builds one: its binary, alone in an empty folder, serves its page and its not-found page.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { binaryAlone, BUILD_TIMEOUT_MS, startBinary, type Alone, type RunningBinary } from "../support/binary.ts";

const MINIMAL_APP = join(import.meta.dir, "../fixtures/minimal-app/app.ts");

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

test("the binary serves the app's page", async () => {
  const res = await fetch(`${server.origin}/`);
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain("<h1>Hello from my app</h1>");
  expect(html).toMatch(/<script[^>]+src="\/assets\/entry-client-[a-z0-9]+\.js"/);
});

test("the binary answers an unknown path with the app's not-found page", async () => {
  const res = await fetch(`${server.origin}/no-such-page`);
  expect(res.status).toBe(404);
  expect(await res.text()).toContain("<h1>Page not found</h1>");
});
