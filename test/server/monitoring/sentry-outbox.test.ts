// Nothing lost while Sentry is down: the production binary keeps undelivered envelopes in DATA_DIR's outbox and
// sends them once the fake ingest is back, after a restart too, each event exactly once; past SENTRY_OUTBOX_MAX
// envelopes are dropped and counted in a log line.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import {
  binaryAlone,
  BUILD_TIMEOUT_MS,
  builtBinary,
  startBinary,
  type Alone,
  type RunningBinary,
} from "../../support/binary.ts";
import { startFakeIngest, type FakeIngest } from "brisk/test";
import { until } from "../../support/until.ts";

let alone: Alone;
let ingest: FakeIngest;
const running: RunningBinary[] = [];

beforeAll(async () => {
  await builtBinary();
  alone = await binaryAlone();
}, BUILD_TIMEOUT_MS);

afterEach(async () => {
  for (const server of running.splice(0)) await server.kill();
  await ingest?.stop();
});

afterAll(async () => {
  await alone?.remove();
});

const outbox = (dataDir: string) => join(alone.dir, dataDir, "sentry-outbox");

async function waiting(dataDir: string): Promise<number> {
  const files = await readdir(outbox(dataDir)).catch(() => [] as string[]);
  return files.filter((f) => f.endsWith(".envelope")).length;
}

/**
 * Once the outbox is empty every envelope it held has had its answer (a file goes only then): none is on its
 * way, and none is left to send again, so what the ingest has now is all it gets.
 */
const emptied = (dataDir: string) =>
  until(async () => (await readdir(outbox(dataDir))).length === 0, "an empty outbox", 20_000);

/** The binary, answering. Errors of its first moments, before error monitoring has started, wait for it. */
async function start(env: Record<string, string>): Promise<RunningBinary> {
  const server = await startBinary(alone, { SENTRY_DSN: ingest.dsn(), ...env });
  running.push(server);
  return server;
}

async function failingPage(server: RunningBinary): Promise<string> {
  const html = await (await fetch(`${server.origin}/server-error`)).text();
  return /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)![1]!;
}

const eventDigests = () => ingest.events().map((e) => e.tags?.digest as string);

test("events from during an outage and across a restart arrive once Sentry is back, each exactly once", async () => {
  ingest = await startFakeIngest();
  await ingest.setMode("down");
  const dataDir = "data-restart";
  const first = await start({ DATA_DIR: dataDir });
  const digests = [await failingPage(first), await failingPage(first), await failingPage(first)];
  await until(async () => (await waiting(dataDir)) >= 3, "3 envelopes in the outbox", 20_000);
  // Log lines go out in batches: the warning may follow the outbox's files by a moment.
  await first.waitForOutput(/"msg":"sentry unreachable: envelopes wait on disk and are sent when it answers"/);
  expect(
    first
      .jsonLines()
      .filter((l) => l.msg === "sentry unreachable: envelopes wait on disk and are sent when it answers"),
  ).toHaveLength(1);

  first.proc.kill("SIGTERM");
  expect(await first.proc.exited).toBe(0);

  const second = await start({ DATA_DIR: dataDir });
  digests.push(await failingPage(second), await failingPage(second));
  await until(async () => (await waiting(dataDir)) >= 5, "5 envelopes in the outbox", 20_000);
  expect(ingest.received).toEqual([]);

  await ingest.setMode("up");
  await ingest.waitFor(() => digests.every((d) => eventDigests().includes(d)), 20_000);
  // Nothing left waiting or half-sent, so no duplicate still to come.
  await emptied(dataDir);
  expect(eventDigests().sort()).toEqual([...digests].sort());
  // Each event's release is the build's: the envelopes are the ones the SDK made, kept as they were.
  expect(new Set(ingest.events().map((e) => e.release))).toEqual(new Set([(await builtBinary()).buildId]));
}, 60_000);

test("past SENTRY_OUTBOX_MAX, envelopes are dropped and counted in one log line; the kept ones still arrive", async () => {
  ingest = await startFakeIngest();
  await ingest.setMode("down");
  const dataDir = "data-bounded";
  const server = await start({ DATA_DIR: dataDir, SENTRY_OUTBOX_MAX: "2" });
  const digests = [];
  // One at a time until the outbox is full, so that the two it keeps are the first two pages'.
  for (let i = 1; i <= 2; i++) {
    digests.push(await failingPage(server));
    await until(async () => (await waiting(dataDir)) === i, `${i} envelopes in the outbox`, 20_000);
  }
  for (let i = 0; i < 3; i++) digests.push(await failingPage(server));
  await server.waitForOutput(/"msg":"sentry outbox full: envelopes dropped"/);
  const drops = server.jsonLines().filter((l) => l.msg === "sentry outbox full: envelopes dropped");
  expect(drops).toEqual([expect.objectContaining({ level: "warn", dropped: 3, max: 2 })]);
  expect(await waiting(dataDir)).toBe(2);

  await ingest.setMode("up");
  await ingest.waitFor(() => eventDigests().length >= 2, 20_000);
  await emptied(dataDir);
  expect(eventDigests().sort()).toEqual(digests.slice(0, 2).sort());
}, 60_000);
