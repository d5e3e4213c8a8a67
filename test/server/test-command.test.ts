// `bun run test` (scripts/test.ts) on a throwaway package whose suites pass and fail: every suite runs, each
// one's result is printed, the totals cover them all, and the exit code says that one failed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const RUNNER = resolve("scripts/test.ts");
let dir: string;

const passing = (name: string) => `import { test } from "bun:test"; test("${name}", () => {});\n`;
const failing = `import { expect, test } from "bun:test"; test("fails", () => expect(1).toBe(2));\n`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "brisk-test-command-"));
  const suite = (folder: string) => `bun test ./${folder}`;
  const scripts = {
    typecheck: "exit 3",
    "test:runtime": suite("runtime"),
    "test:dom": suite("dom"),
    "test:server": suite("server"),
    "test:e2e": suite("e2e"),
    "test:app:server": suite("test/app/server"),
    "test:app:dom": suite("test/app/dom"),
  };
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "suites", private: true, scripts }));
  const files: Record<string, string> = {
    "runtime/r.test.ts": passing("r"),
    "dom/a.test.ts": `${passing("a")}test("b", () => {});\n`,
    "server/b.test.ts": failing,
    "e2e/c.test.ts": passing("c"),
    "test/app/server/d.test.ts": failing,
    "test/app/dom/e.test.ts": passing("e"),
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
});

afterAll(() => rm(dir, { recursive: true, force: true }));

test("runs every suite past the failing ones, prints each one's result and one total, and exits non-zero", async () => {
  const run = Bun.spawn(["bun", RUNNER], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const [out, code] = await Promise.all([new Response(run.stdout).text(), run.exited]);
  expect(code).toBe(1);
  const summary = out.slice(out.lastIndexOf("Suites:"));
  const results = [...summary.matchAll(/^ {2}(passed|FAILED \(exit \d+\)) {2}([\w:]+):/gm)].map(
    ([, result, suite]) => `${suite} ${result}`,
  );
  expect(results).toEqual([
    "typecheck FAILED (exit 3)",
    "test:runtime passed",
    "test:dom passed",
    "test:server FAILED (exit 1)",
    "test:e2e passed",
    "test:app:server FAILED (exit 1)",
    "test:app:dom passed",
  ]);
  expect(summary).toContain("5 passed, 2 failed; failing suites: typecheck, test:server, test:app:server");
});
