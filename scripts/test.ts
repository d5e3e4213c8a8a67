// test.ts: `bun run test`: every suite in turn (the type check, then each `bun test` run of package.json's
// test:* scripts, kept apart as their setups need), each one's result and wall time, and the tests passed and
// failed in all. A suite that fails does not stop the next: the app's own suite, last, always runs. The exit
// code is non-zero when any suite failed.
import { existsSync } from "node:fs";

// The app's suite as its two runs, so a failing server half does not keep the DOM half from running.
const APP_SUITES = existsSync("test/app") ? ["test:app:server", "test:app:dom"] : [];
const SUITES = ["typecheck", "test:runtime", "test:dom", "test:server", "test:e2e", ...APP_SUITES];

const totals = { pass: 0, fail: 0 };
const times: string[] = [];

/** Runs one package.json script, its output passed through as it comes, and counts bun test's summary lines. */
async function run(script: string): Promise<number> {
  const started = performance.now();
  const child = Bun.spawn(["bun", "run", script], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const counted = (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) =>
    (async () => {
      let rest = "";
      const decoder = new TextDecoder();
      for await (const bytes of stream) {
        const chunk = decoder.decode(bytes, { stream: true });
        out.write(chunk);
        const lines = (rest + chunk).split("\n");
        rest = lines.pop()!;
        for (const line of lines) {
          const summary = /^\s*(\d+) (pass|fail)\s*$/.exec(line);
          if (summary) totals[summary[2] as "pass" | "fail"] += Number(summary[1]);
        }
      }
    })();
  await Promise.all([counted(child.stdout, process.stdout), counted(child.stderr, process.stderr)]);
  const code = await child.exited;
  times.push(
    `${code === 0 ? "passed" : `FAILED (exit ${code})`}  ${script}: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return code;
}

const failed: string[] = [];
for (const suite of SUITES) if ((await run(suite)) !== 0) failed.push(suite);
console.log(`\nSuites:\n${times.map((line) => `  ${line}`).join("\n")}`);
console.log(
  `${totals.pass} passed, ${totals.fail} failed${failed.length ? `; failing suites: ${failed.join(", ")}` : ""}`,
);
process.exit(failed.length ? 1 : 0);
