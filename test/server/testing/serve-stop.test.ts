// brisk/test's stop(): the app's own server.stop() (its database closed) run from a test, once, in-process and
// on a port (the socket closed first), as the server does on SIGTERM.
import { afterAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listenApp, serveApp } from "brisk/test";
import { STARTED_FILE, STOPPED_FILE } from "../../fixtures/started-app/server.server.ts";

const APP = join(import.meta.dir, "../../fixtures/started-app/app.ts");
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A DATA_DIR of its own, where the app's start and stop leave their marks. */
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "brisk-serve-stop-"));
  dirs.push(dir);
  return dir;
}

const mark = (dir: string, file: string) =>
  Bun.file(join(dir, file))
    .text()
    .catch(() => undefined);

test("serveApp's stop() runs the app's server.stop() once, however often it is called", async () => {
  const dir = await dataDir();
  const served = await serveApp({ app: APP, env: { DATA_DIR: dir } });
  expect(await mark(dir, STARTED_FILE)).toContain(`"dataDir":${JSON.stringify(dir)}`);
  expect((await served.request("/?name=Ada")).status).toBe(200);
  expect(await mark(dir, STOPPED_FILE)).toBeUndefined();
  await Promise.all([served.stop(), served.stop()]);
  await served.stop();
  expect(await mark(dir, STOPPED_FILE)).toBe("stopped 1 time(s)");
});

test("listenApp's stop() closes the socket, then runs the app's server.stop(), once", async () => {
  const dir = await dataDir();
  const listening = await listenApp({ app: APP, env: { DATA_DIR: dir } });
  expect((await fetch(`${listening.origin}/?name=Ada`)).status).toBe(200);
  await listening.stop();
  await listening.stop();
  await expect(fetch(`${listening.origin}/healthz`)).rejects.toThrow();
  expect(await mark(dir, STOPPED_FILE)).toBe("stopped 1 time(s)");
});
