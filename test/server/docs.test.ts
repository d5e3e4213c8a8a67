// docs.test.ts: the docs hold to the code. The reference names every export of brisk, brisk/server and
// brisk/test and nothing else, its configuration page every variable the server reads, links between pages
// lead somewhere, and every TypeScript sample of README.md and docs/ type-checks with the project's tsconfig
// (the convention for samples is in test/support/doc-samples.ts and docs/README.md).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { docPages, errorInDocs, projectsOf, ROOT, samplesOf, type SampleProject } from "../support/doc-samples.ts";

const read = (file: string) => Bun.file(join(ROOT, file)).text();

/** The names a module exports, from its `export { … }` lists and its exported declarations. */
function exportsOf(source: string): string[] {
  const lists = [...source.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(","));
  const names = lists
    .map((entry) =>
      entry
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1)!
        .trim(),
    )
    .filter(Boolean);
  const declared = [
    ...source.matchAll(
      /^export (?:declare )?(?:async )?(?:function\*?|const|let|class|interface|type|enum) ([A-Za-z_$][\w$]*)/gm,
    ),
  ].map((m) => m[1]!);
  return [...new Set([...names, ...declared])].sort();
}

/** The names a page's headings give in backticks: `useFetcher`, `<Form>` and `Fetcher` alike. */
function headingNames(markdown: string): string[] {
  const headings = markdown.replace(/^```[\s\S]*?^```/gm, "").match(/^#{2,4} .*$/gm) ?? [];
  const names = headings.flatMap((h) => [...h.matchAll(/`<?([A-Za-z_$][\w$]*)[^`]*`/g)].map((m) => m[1]!));
  return [...new Set(names)].sort();
}

const ENTRIES = [
  { entry: "brisk", module: "src/runtime/index.ts", page: "docs/reference/brisk.md" },
  { entry: "brisk/server", module: "src/server/index.ts", page: "docs/reference/brisk-server.md" },
  { entry: "brisk/test", module: "src/server/testing/index.ts", page: "docs/reference/brisk-test.md" },
];

describe("the reference", () => {
  for (const { entry, module, page } of ENTRIES) {
    test(`${page} gives every export of ${entry} a heading, and names no other`, async () => {
      const exported = exportsOf(await read(module));
      const documented = headingNames(await read(page));
      expect(exported.length).toBeGreaterThan(5);
      expect({
        missing: exported.filter((n) => !documented.includes(n)),
        notExported: documented.filter((n) => !exported.includes(n)),
      }).toEqual({ missing: [], notExported: [] });
    });
  }

  test("docs/reference/configuration.md lists every variable the configuration reads, and only real ones", async () => {
    const config = await read("src/server/config/config.ts");
    const parsed = new Set(
      [...config.matchAll(/\(env, "([A-Z][A-Z0-9_]+)"/g), ...config.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(parsed.size).toBeGreaterThan(20);
    const table = await read("docs/reference/configuration.md");
    const listed = new Set([...table.matchAll(/^\| `([A-Za-z][A-Za-z0-9_]+)` \|/gm)].map((m) => m[1]!));
    // Elsewhere in the project: the build's Sentry upload, brisk/test's Chromium, the container. Bun's own (BUN_*) are Bun's.
    const code = (
      await Promise.all(
        ["src/server/build/sourcemap-upload.ts", "src/server/testing/browser.ts", "Dockerfile", "package.json"].map(
          read,
        ),
      )
    ).join("\n");
    const unknown = [...listed].filter((name) => !parsed.has(name) && !name.startsWith("BUN_") && !code.includes(name));
    expect({ missing: [...parsed].filter((name) => !listed.has(name)), unknown }).toEqual({ missing: [], unknown: [] });
  });

  test("the exports are read from export lists and declarations alike", () => {
    expect(
      exportsOf(
        'export { a, type B, c as d } from "./x.ts";\nexport type {\n  E,\n} from "./y.ts";\nexport function f() {}\nexport const g = 1;',
      ),
    ).toEqual(["B", "E", "a", "d", "f", "g"]);
    expect(headingNames("## Hooks\n### `useFetcher` · `Fetcher`\n```ts\n## `notAHeading`\n```\n### `<Form>`")).toEqual([
      "Fetcher",
      "Form",
      "useFetcher",
    ]);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replaceAll(" ", "-");

test("every relative link in README.md and docs/ leads to a file, and an anchor to a heading of it", async () => {
  const broken: string[] = [];
  for (const page of await docPages()) {
    const text = (await read(page)).replace(/^```[\s\S]*?^```/gm, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [file, anchor] = target!.split("#");
      const path = file ? join(dirname(page), file) : page;
      if (!(await Bun.file(join(ROOT, path)).exists()) && !(await Bun.file(join(ROOT, path, "README.md")).exists())) {
        broken.push(`${page}: ${target} (no such file)`);
        continue;
      }
      if (!anchor) continue;
      const headings = (
        (await read(path.endsWith(".md") ? path : join(path, "README.md")))
          .replace(/^```[\s\S]*?^```/gm, "")
          .match(/^#{1,6} .*$/gm) ?? []
      ).map((h) => slug(h.replace(/^#+ /, "")));
      if (!headings.includes(anchor)) broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});

describe("the samples", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  /** Writes the projects inside the project (where `brisk` resolves to itself) and type-checks them in one run. */
  async function check(projects: SampleProject[]): Promise<string[]> {
    // A dot folder at the root: outside tsconfig's include, bun test's suites and the boundary test's globs.
    const dir = await mkdtemp(join(ROOT, ".docs-check-"));
    dirs.push(dir);
    for (const { name, files } of projects) {
      for (const { path, sample } of files) {
        await mkdir(dirname(join(dir, name, path)), { recursive: true });
        await Bun.write(join(dir, name, path), sample.code);
      }
    }
    // A program of the samples alone, so the checkout's own registered route table (.brisk/routes.d.ts) is not theirs.
    const files = projects.flatMap(({ name, files }) => files.map(({ path }) => join(name, path)));
    await Bun.write(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../tsconfig.json", files, include: [] }));
    const proc = Bun.spawn(["bun", "check", "--no-script", "--no-pretty", "--all", "-p", dir], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    const lines = `${out}\n${err}`.split("\n").filter((l) => /\): error /.test(l));
    if (proc.exitCode !== 0 && lines.length === 0)
      throw new Error(`bun check failed without an error line:\n${out}${err}`);
    // The guide's app is checked after each chapter: an error in one sample shows once.
    return [...new Set(lines.map((l) => errorInDocs(l, dir, projects)))];
  }

  test("every ts and tsx sample of README.md and docs/ type-checks", async () => {
    const pages = await Promise.all(
      (await docPages()).map(async (doc) => ({ doc, samples: samplesOf(doc, await read(doc)) })),
    );
    const projects = projectsOf(pages);
    expect(projects.filter((p) => p.name.startsWith("docs_guide_")).length).toBeGreaterThan(5);
    expect(await check(projects)).toEqual([]);
  }, 60_000);

  test("a sample that does not type-check is reported at its page and line", async () => {
    const page =
      '# A page\n\n```tsx\n// src/app/pages/Pending.tsx\nimport { usePending } from "brisk";\n\nexport const Saving = () => (usePending() === "submitting" ? <p>Saving…</p> : null);\n```\n\n```ts fragment\nnot: a module\n```\n';
    const errors = await check(projectsOf([{ doc: "docs/example.md", samples: samplesOf("docs/example.md", page) }]));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toStartWith("docs/example.md:7 (src/app/pages/Pending.tsx): error TS2367");
  }, 60_000);
});
