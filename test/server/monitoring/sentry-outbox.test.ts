// Nothing lost while Sentry is down: the production binary keeps undelivered envelopes in DATA_DIR's outbox and
// sends them once the fake ingest is back, after a restart too, each event exactly once; past SENTRY_OUTBOX_MAX
// envelopes are dropped and counted in a log line.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { binaryAlone, BUILD_TIMEOUT_MS, builtBinary, startBinary, type Alone, type RunningBinary } from "../../support/binary.ts";
import { startFakeIngest, type FakeIngest } from "brisk/test";

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

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

async function start(env: Record<string, string>): Promise<RunningBinary> {
  const server = await startBinary(alone, { SENTRY_DSN: ingest.dsn(), ...env });
  running.push(server);
  // Error monitoring starts a moment after the server listens.
  await server.waitForOutput(/"msg":"listening"/);
  await Bun.sleep(300);
  return server;
}

async function failingPage(server: RunningBinary): Promise<string> {
  const html = await (await fetch(`${server.origin}/server-error`)).text();
  return /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)![1]!;
}

const eventDigests = () => ingest.events().map((e) => e.tags?.digest as string);

test(
  "events from during an outage and across a restart arrive once Sentry is back, each exactly once",
  async () => {
    ingest = await startFakeIngest();
    await ingest.setMode("down");
    const dataDir = "data-restart";
    const first = await start({ DATA_DIR: dataDir });
    const digests = [await failingPage(first), await failingPage(first), await failingPage(first)];
    await until(async () => (await waiting(dataDir)) >= 3, "3 envelopes in the outbox");
    // Log lines go out in batches: the warning may follow the outbox's files by a moment.
    const unreachable = () => first.jsonLines().filter((l) => l.msg === "sentry unreachable: envelopes wait on disk and are sent when it answers");
    await until(() => unreachable().length > 0, "the sentry unreachable line");
    expect(unreachable()).toHaveLength(1);

    first.proc.kill("SIGTERM");
    expect(await first.proc.exited).toBe(0);

    const second = await start({ DATA_DIR: dataDir });
    digests.push(await failingPage(second), await failingPage(second));
    await until(async () => (await waiting(dataDir)) >= 5, "5 envelopes in the outbox");
    expect(ingest.received).toEqual([]);

    await ingest.setMode("up");
    await until(() => digests.every((d) => eventDigests().includes(d)), "every event at the ingest");
    // Time enough for a duplicate to arrive too.
    await Bun.sleep(1_500);
    expect(eventDigests().sort()).toEqual([...digests].sort());
    expect(await waiting(dataDir)).toBe(0);
    // Nothing left half-sent either.
    expect(await readdir(outbox(dataDir))).toEqual([]);
    // Each event's release is the build's: the envelopes are the ones the SDK made, kept as they were.
    expect(new Set(ingest.events().map((e) => e.release))).toEqual(new Set([(await builtBinary()).buildId]));
  },
  60_000,
);

test(
  "past SENTRY_OUTBOX_MAX, envelopes are dropped and counted in one log line; the kept ones still arrive",
  async () => {
    ingest = await startFakeIngest();
    await ingest.setMode("down");
    const dataDir = "data-bounded";
    const server = await start({ DATA_DIR: dataDir, SENTRY_OUTBOX_MAX: "2" });
    const digests = [];
    for (let i = 0; i < 5; i++) digests.push(await failingPage(server));
    await until(() => server.jsonLines().some((l) => l.msg === "sentry outbox full: envelopes dropped"), "the drop line");
    const drops = server.jsonLines().filter((l) => l.msg === "sentry outbox full: envelopes dropped");
    expect(drops).toEqual([expect.objectContaining({ level: "warn", dropped: 3, max: 2 })]);
    expect(await waiting(dataDir)).toBe(2);

    await ingest.setMode("up");
    await until(() => eventDigests().length >= 2, "the two kept events");
    await Bun.sleep(1_000);
    expect(eventDigests().sort()).toEqual(digests.slice(0, 2).sort());
  },
  60_000,
);
