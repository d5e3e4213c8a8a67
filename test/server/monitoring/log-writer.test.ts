// log-writer.test.ts: log text against a stdout that fails, stalls and comes back: the writer never throws,
// keeps the order, drops at worst, and counts what it dropped.
import { expect, test } from "bun:test";
import { logWriter } from "../../../src/server/monitoring/log-writer.ts";
import { changes } from "../../support/until.ts";

type Outcome = "ok" | "EPIPE" | "EAGAIN" | number;

/** A device that answers each write with the next scripted outcome (then "ok"), recording what got out. */
function device(script: Outcome[] = []) {
  const out: string[] = [];
  const warnings: string[] = [];
  /** What got out, as it changes: the writer's retries come on a timer of its own. */
  const written = changes();
  const decoder = new TextDecoder();
  const write = (bytes: Uint8Array) => {
    const next = script.shift() ?? "ok";
    if (next === "EPIPE" || next === "EAGAIN") throw Object.assign(new Error(next), { code: next });
    const n = next === "ok" ? bytes.byteLength : Math.min(next, bytes.byteLength);
    out.push(decoder.decode(bytes.subarray(0, n)));
    written.changed();
    return n;
  };
  const droppedLine = (dropped: number) => `{"msg":"log lines dropped","dropped":${dropped}}\n`;
  return { out, warnings, script, written, writer: logWriter({ write, warn: (t) => warnings.push(t), droppedLine }) };
}

const lines = (out: string[]) => out.join("").split("\n").filter(Boolean);

test("a dead reader drops lines, counted; the first write that gets through says how many, first", () => {
  const { out, warnings, writer } = device(["EPIPE", "EPIPE", "EPIPE"]);
  writer("a\nb\n");
  writer("c\n");
  writer("d\n");
  expect(out).toEqual([]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("EPIPE");
  writer("e\n");
  writer("f\n");
  expect(lines(out)).toEqual(['{"msg":"log lines dropped","dropped":4}', "e", "f"]);
});

test("a report that itself fails keeps its count, and each outage is told on stderr once", () => {
  const { out, warnings, writer, script } = device(["EPIPE", "EPIPE"]);
  writer("a\n");
  writer("b\n");
  writer("c\n");
  expect(lines(out)).toEqual(['{"msg":"log lines dropped","dropped":2}', "c"]);
  script.push("EPIPE");
  writer("d\n");
  writer("e\n");
  expect(lines(out).slice(2)).toEqual(['{"msg":"log lines dropped","dropped":1}', "e"]);
  expect(warnings).toHaveLength(2);
});

test("a stalled reader (short writes, EAGAIN) gets every line, in order", async () => {
  const { out, written, writer } = device([3, "EAGAIN", "EAGAIN", 2, "EAGAIN"]);
  writer("first\n");
  writer("second\n");
  writer("third\n");
  await written.until(() => out.join("").endsWith("third\n"), "the last line written whole");
  expect(lines(out)).toEqual(["first", "second", "third"]);
});

test("past 1 MiB queued behind a stall, new lines are dropped and counted, and exit says so on stderr", () => {
  const { out, warnings, writer } = device(Array<Outcome>(10_000).fill("EAGAIN"));
  const line = `${"x".repeat(1023)}\n`;
  for (let i = 0; i < 1100; i++) writer(line);
  expect(out).toEqual([]);
  writer.close();
  expect(warnings.at(-1)).toBe("brisk: 1100 log lines were dropped: stdout was not taking them\n");
});
