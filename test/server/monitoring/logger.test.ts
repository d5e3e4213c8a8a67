import { describe, expect, test } from "bun:test";
import { batchedLogger } from "../../../src/server/monitoring/logger.ts";

function capture() {
  const writes: string[] = [];
  const firstWrite = Promise.withResolvers<void>();
  const log = batchedLogger((text) => {
    writes.push(text);
    firstWrite.resolve();
  });
  const lines = () =>
    writes
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { writes, firstWrite: firstWrite.promise, log, lines };
}

describe("batchedLogger", () => {
  test("a burst of lines leaves in one write, each line one JSON object with a time", async () => {
    const { writes, firstWrite, log, lines } = capture();
    log({ level: "info", msg: "a" });
    log({ level: "error", msg: "b", status: 500 });
    expect(writes).toEqual([]);
    // The batch's timer writes it.
    await firstWrite;
    expect(writes.length).toBe(1);
    expect(lines().map((l) => [l.level, l.msg])).toEqual([
      ["info", "a"],
      ["error", "b"],
    ]);
    expect(Date.parse(String(lines()[0]!.time))).toBeGreaterThan(0);
  });

  test("a large burst is written before the timer, and nothing is lost or reordered", () => {
    const { writes, log, lines } = capture();
    for (let i = 0; i < 1000; i++) log({ level: "info", msg: `line ${i}` });
    expect(writes.length).toBeGreaterThan(0);
    log.flush();
    expect(lines().map((l) => l.msg)).toEqual(Array.from({ length: 1000 }, (_, i) => `line ${i}`));
  });

  test("flush writes what is pending at once, and nothing twice", () => {
    const { writes, log } = capture();
    log({ level: "warn", msg: "stopping" });
    log.flush();
    log.flush();
    expect(writes.length).toBe(1);
  });
});
