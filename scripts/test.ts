// test.ts: `bun run test`: every suite in turn (the type check, then each `bun test` run of package.json's
// test:* scripts, kept apart as their setups need), each one's wall time, and the tests passed and failed in all.
// Stops at the first suite that fails, as the chain of `&&` it replaces did.
import { existsSync } from "node:fs";

const SUITES = ["typecheck", "test:dom", "test:server", "test:e2e", ...(existsSync("test/app") ? ["test:app"] : [])];

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
  times.push(`${script}: ${((performance.now() - started) / 1000).toFixed(1)} s${code === 0 ? "" : ` (exit ${code})`}`);
  return code;
}

let failed = 0;
for (const suite of SUITES) {
  failed = await run(suite);
  if (failed !== 0) break;
}
console.log(`\nTime per suite:\n${times.map((line) => `  ${line}`).join("\n")}`);
console.log(`${totals.pass} passed, ${totals.fail} failed`);
process.exit(failed);
