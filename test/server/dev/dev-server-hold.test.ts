// dev-server-hold.test.ts: the dev server listens before its app has loaded: a request that comes that early waits
// for the app and is answered by it; one held past the bound (held short here) gets a 503 page saying what it
// waits for, and so does one that waits past it for an edit to build. Each dev server runs in a copy of the
// project, and the test reads what it prints to know where it is.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "brisk/test";
import { DEV_EVENTS_PATH } from "../../../src/server/dev/dev-page.ts";
import { readEvents, received, states } from "../../support/dev-events.ts";
import { serverEnv, start, type Running } from "../../support/process.ts";
import { projectCopy } from "../../support/project-copy.ts";

/** What the dev server prints once it listens, and once its app has loaded. */
const LISTENING = /brisk dev server listening on http:\/\/\S+, loading the app/;
const READY = /brisk dev server: http:\/\//;
const LOADER = "src/app/loaders.server.ts";

interface DevServer {
  dev: Running;
  copy: string;
  origin: string;
}

/** `bun run dev` in a copy of the project, or with `holdMs`, the dev server started with that bound. */
async function startDev(holdMs?: number): Promise<DevServer> {
  const copy = await projectCopy();
  const port = await freePort();
  const env = { ...serverEnv({ PORT: String(port) }), HOST: undefined };
  const held = `import { startDevServer } from "./src/server/dev/dev-server.ts"; await startDevServer(Bun.env, { holdMs: ${holdMs} });`;
  const cmd = holdMs === undefined ? ["bun", "run", "dev"] : ["bun", "-e", held];
  return { dev: start(cmd, { cwd: copy, env }), copy, origin: `http://127.0.0.1:${port}` };
}

interface Asked {
  /** Whether the dev server had printed that its app loaded when the request went. */
  loadedFirst: boolean;
  response: Response;
}

/** Asks for the home page the moment the dev server says it listens. */
async function askOnListening({ dev, origin }: DevServer): Promise<Asked> {
  await dev.waitForOutput(LISTENING, 30_000);
  const loadedFirst = READY.test(dev.output());
  return { loadedFirst, response: await fetch(`${origin}/`) };
}

/** A dev server, and its first request, asked as it starts listening: started here, awaited in the tests. */
async function launch(holdMs?: number): Promise<DevServer & { first: Promise<Asked> }> {
  const server = await startDev(holdMs);
  servers.push(server);
  const first = askOnListening(server);
  // Awaited in its test, which reports a failure; not an unhandled rejection meanwhile.
  first.catch(() => {});
  return { ...server, first };
}

const servers: DevServer[] = [];
let waiting: Awaited<ReturnType<typeof launch>>;
let held: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  [waiting, held] = await Promise.all([launch(), launch(1)]);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map(({ dev }) => dev.kill()));
  await Promise.all(servers.map(({ copy }) => rm(copy, { recursive: true, force: true })));
});

describe("a request that comes before the app has loaded", () => {
  test("waits, and is answered by the app once it has loaded, not by a 503", async () => {
    const { loadedFirst, response } = await waiting.first;
    expect(loadedFirst).toBe(false);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Fixture home");
    expect(html).toContain("/__dev/events");
  });

  test("past the bound: a 503 page that says it waits for the app, with Retry-After; then the app answers", async () => {
    const { loadedFirst, response } = await held.first;
    expect(loadedFirst).toBe(false);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain("<h1>Waiting for the app to load</h1>");
    await held.dev.waitForOutput(READY, 30_000);
    const loaded = await fetch(`${held.origin}/`);
    expect(loaded.status).toBe(200);
    expect(await loaded.text()).toContain("Fixture home");
  });
});

/** The dev server's event stream, as an open page hears it: the first state comes on connecting. */
const devEvents = async (origin: string) => (await fetch(`${origin}${DEV_EVENTS_PATH}`)).body!.getReader();

test("a request past the bound while a saved edit builds gets the page saying so; the next one, the edit", async () => {
  await held.dev.waitForOutput(READY, 30_000);
  const events = await devEvents(held.origin);
  const first = await readEvents(events, received(1));
  const path = join(held.copy, LOADER);
  await writeFile(path, (await readFile(path, "utf8")).replace('greeting: "Fixture home"', 'greeting: "Edited home"'));
  // The dev server sees the save by the file's time, before its watcher reports it, and builds it.
  const during = await fetch(`${held.origin}/`);
  expect(during.status).toBe(503);
  expect(await during.text()).toContain("<h1>Waiting for the edits saved to be built</h1>");
  const text = await readEvents(events, received(2), first);
  expect(states(text)[1]!.update).not.toBe(states(first)[0]!.update);
  await events.cancel();
  const after = await fetch(`${held.origin}/`);
  expect(after.status).toBe(200);
  expect(await after.text()).toContain("Edited home");
});

test("the table's patterns are written for the type checker once the app loads, and again when a route is added", async () => {
  await waiting.dev.waitForOutput(READY, 30_000);
  const file = join(waiting.copy, ".brisk/routes.d.ts");
  const written = await readFile(file, "utf8");
  expect(written).toContain('| "/search"');
  expect(written).not.toContain('"/added"');
  const events = await devEvents(waiting.origin);
  const first = await readEvents(events, received(1));
  const table = join(waiting.copy, "src/app/app.ts");
  await writeFile(
    table,
    (await readFile(table, "utf8")).replace(
      '{ path: "/search",',
      '{ path: "/added", component: Search },\n    { path: "/search",',
    ),
  );
  const text = await readEvents(events, received(2), first);
  expect(states(text)[1]!.update).not.toBe(states(first)[0]!.update);
  await events.cancel();
  expect(await readFile(file, "utf8")).toContain('| "/added"');
});
