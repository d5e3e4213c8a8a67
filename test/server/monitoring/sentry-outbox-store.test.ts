// The Sentry outbox's store (issue 23, R11), driven as @sentry/core's offline transport drives it: its bounds
// (envelopes and bytes) hold however many pushes arrive at once, and what it keeps only its owner can read.
import { afterAll, expect, test } from "bun:test";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEnvelope, type Envelope } from "@sentry/core";
import type { LogRecord } from "../../../src/server/monitoring/logger.ts";
import { createOutbox } from "../../../src/server/monitoring/sentry-outbox.ts";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function outboxDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "brisk-outbox-"));
  dirs.push(dir);
  return join(dir, "sentry-outbox");
}

/** An event envelope of about `bytes` bytes. */
function envelope(bytes: number): Envelope {
  return createEnvelope({ event_id: crypto.randomUUID().replaceAll("-", "") }, [
    [{ type: "event" }, { message: "x".repeat(bytes) }],
  ]) as Envelope;
}

const waitingFiles = async (dir: string) => (await readdir(dir)).filter((f) => f.endsWith(".envelope"));

test("the envelope cap holds when pushes arrive at once", async () => {
  const dir = await outboxDir();
  const outbox = createOutbox(dir, { maxEnvelopes: 10, maxBytes: 1_048_576 }, () => {});
  await Promise.all(Array.from({ length: 50 }, () => outbox.store.push(envelope(100))));
  expect(await waitingFiles(dir)).toHaveLength(10);
});

test("the byte cap holds too, at once or one by one; the drops are counted in one log line", async () => {
  const dir = await outboxDir();
  const logs: LogRecord[] = [];
  const outbox = createOutbox(dir, { maxEnvelopes: 1000, maxBytes: 10_000 }, (r) => void logs.push(r));
  await Promise.all(Array.from({ length: 20 }, () => outbox.store.push(envelope(3_000))));
  await outbox.store.push(envelope(3_000));
  const files = await waitingFiles(dir);
  const sizes = await Promise.all(files.map(async (f) => (await stat(join(dir, f))).size));
  expect(files).toHaveLength(3);
  expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
  outbox.close();
  expect(logs.filter((r) => r.msg === "sentry outbox full: envelopes dropped")).toEqual([
    expect.objectContaining({ level: "warn", dropped: 18, max: 1000, maxBytes: 10_000 }),
  ]);
});

test("room made by a delivered envelope is used again", async () => {
  const dir = await outboxDir();
  const outbox = createOutbox(dir, { maxEnvelopes: 1000, maxBytes: 7_000 }, () => {});
  await outbox.store.push(envelope(3_000));
  await outbox.store.push(envelope(3_000));
  await outbox.store.push(envelope(3_000));
  expect(await waitingFiles(dir)).toHaveLength(2);
  outbox.delivered((await outbox.store.shift())!);
  await outbox.store.push(envelope(3_000));
  expect(await waitingFiles(dir)).toHaveLength(2);
});

test("the folder is 0700 and every envelope file 0600: events carry request data", async () => {
  const dir = await outboxDir();
  const outbox = createOutbox(dir, { maxEnvelopes: 10, maxBytes: 1_048_576 }, () => {});
  await outbox.store.push(envelope(100));
  await outbox.store.unshift(envelope(100));
  expect((await stat(dir)).mode & 0o777).toBe(0o700);
  const modes = await Promise.all((await readdir(dir)).map(async (f) => (await stat(join(dir, f))).mode & 0o777));
  expect(modes).toEqual([0o600, 0o600]);
});
