// boundary.test.ts: the line between the framework and the apps on it. An app (the examples, the fixture
// apps, the bench's app, the samples of README.md and docs/, the examples' tests) reaches Brisk only as `brisk`,
// `brisk/server` or `brisk/test`; the code both sides run never leans on the server's files (types included),
// the server never on the browser's, nothing in src/ on scripts/ or the tests, and no framework test or
// bench on the examples. Inside the server, each folder leans only on those docs/explanation/architecture.md
// lists below it.
import { describe, expect, test } from "bun:test";
import { dirname, join, relative, resolve } from "node:path";
import { docPages, samplesOf } from "../support/doc-samples.ts";

const ROOT = resolve(import.meta.dir, "../..");
const PUBLIC_ENTRIES = new Set(["brisk", "brisk/server", "brisk/test"]);
const SELF = relative(ROOT, import.meta.path);

/**
 * Every module specifier a file names, type-only imports and re-exports included (Bun.Transpiler's
 * scanImports drops those, and a type that crosses the line is what this test is for).
 */
export function specifiersOf(source: string): string[] {
  // Comment lines may quote an import (a README sample in a doc comment), and a template string may hold a
  // module a test writes for a project of its own: neither is this file's code.
  const code = source.replace(/^\s*(\/\/|\*|\/\*).*$/gm, "").replace(/`(?:\\.|[^`\\])*`/g, "``");
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^;"'`]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]!);
  return found;
}

type Rule = (target: string) => string | undefined;

/** Where a specifier leads, as a path from the project root, or the bare specifier itself. */
function targetOf(file: string, specifier: string): string {
  return specifier.startsWith(".") ? relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)) : specifier;
}

/** Anything in src/ but the app is the framework's. */
const framework = (target: string) => /^src\/(?!app\/)/.test(target);

/** An app: its own files, packages, and Brisk by its public names only. */
const appRule: Rule = (target) => {
  if (framework(target)) return "reaches into the framework's files: import from brisk, brisk/server or brisk/test";
  if (/^(scripts|test\/support)\//.test(target))
    return "reaches into the project's scripts or the framework's test support";
  if (/^brisk(\/|$)/.test(target) && !PUBLIC_ENTRIES.has(target))
    return "is not one of Brisk's public entries (brisk, brisk/server, brisk/test)";
  if (target === "#app") return "names the project's app, which only the framework loads";
};

const notFromSrc: Rule = (target) => {
  if (/^(scripts|test|bench)\//.test(target)) return "leans on scripts/, test/ or bench/, which src/ must never import";
  if (/^src\/app\//.test(target)) return "names the app by path: the framework meets it only as #app";
  if (/^brisk(\/|$)/.test(target)) return "imports Brisk by its public name from inside Brisk";
};

/** The code both sides run sees nothing of the server's, not even a type. */
const runtimeRule: Rule = (target) =>
  notFromSrc(target) ??
  (/^src\/server\//.test(target)
    ? "imports from src/server: a type both sides need belongs in src/runtime"
    : undefined);

const serverRule: Rule = (target) =>
  notFromSrc(target) ?? (/^src\/runtime\/browser\//.test(target) ? "imports browser-only code" : undefined);

/** The framework's own tests and the bench stand without the examples: replacing src/app breaks none of them. */
const notOnTheExamples: Rule = (target) => {
  if (/^src\/app\//.test(target) || target === "#app")
    return "depends on the project's app: use a fixture app (test/fixtures/) or the bench's own";
};

const RULES: Array<[glob: string, rule: Rule]> = [
  ["src/app/**/*.{ts,tsx}", appRule],
  ["test/fixtures/**/*.{ts,tsx}", appRule],
  ["test/app/**/*.{ts,tsx}", appRule],
  ["bench/app/**/*.{ts,tsx}", appRule],
  ["src/runtime/**/*.{ts,tsx}", runtimeRule],
  ["src/server/**/*.{ts,tsx}", serverRule],
  ["src/entry-client.tsx", notFromSrc],
  ["test/{server,dom,e2e,types,support}/**/*.{ts,tsx}", notOnTheExamples],
  ["bench/**/*.{ts,tsx}", notOnTheExamples],
];

/** The folders of src/server that use all the layers, and that none of them imports: architecture.md says so in words. */
const ABOVE_THE_LAYERS = ["dev", "build", "testing"];

/** Each import from one folder of src/server into another (its root files are "(root)"), by `from -> to`. */
async function serverFolderEdges(): Promise<Map<string, Set<string>>> {
  const folderOf = (file: string) => (file.split("/").length > 3 ? file.split("/")[2]! : "(root)");
  const edges = new Map<string, Set<string>>();
  for await (const file of new Bun.Glob("src/server/**/*.{ts,tsx}").scan({ cwd: ROOT })) {
    for (const specifier of specifiersOf(await Bun.file(join(ROOT, file)).text())) {
      const target = targetOf(file, specifier);
      if (!target.startsWith("src/server/") || folderOf(file) === folderOf(target)) continue;
      const edge = `${folderOf(file)} -> ${folderOf(target)}`;
      edges.set(edge, (edges.get(edge) ?? new Set()).add(`${file} -> ${target}`));
    }
  }
  return edges;
}

function violations(file: string, source: string, rule: Rule): string[] {
  return specifiersOf(source).flatMap((specifier) => {
    const why = rule(targetOf(file, specifier));
    return why ? [`${file}: "${specifier}" ${why}`] : [];
  });
}

describe("the framework's boundary", () => {
  for (const [glob, rule] of RULES) {
    test(`${glob} keeps to its side`, async () => {
      const found: string[] = [];
      for await (const file of new Bun.Glob(glob).scan({ cwd: ROOT })) {
        // This file spells out crossings on purpose, to show that the rules see them.
        if (file === SELF) continue;
        found.push(...violations(file, await Bun.file(join(ROOT, file)).text(), rule));
      }
      expect(found).toEqual([]);
    });
  }

  test("the samples of README.md and docs/ import Brisk by its public names", async () => {
    const samples = (
      await Promise.all((await docPages()).map(async (doc) => samplesOf(doc, await Bun.file(join(ROOT, doc)).text())))
    ).flat();
    expect(samples.filter((s) => s.doc.startsWith("docs/")).length).toBeGreaterThan(20);
    // A sample is written as a file of the app (the paths in its comments say which); one level down in src/app is
    // enough for a relative import to show whether it climbs out of the app.
    const found = samples.flatMap(({ doc, line, path, code }) =>
      violations(path ?? "src/app/pages/sample.tsx", code, appRule).map((v) => `${doc}:${line}: ${v}`),
    );
    expect(found).toEqual([]);
  });

  test("each public name has one home: brisk and brisk/server export no name twice", async () => {
    const exported = async (file: string) => {
      const source = await Bun.file(join(ROOT, file)).text();
      const lists = [...source.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].map((m) => m[1]!);
      return new Set(
        lists
          .flatMap((list) =>
            list.split(",").map(
              (name) =>
                name
                  .trim()
                  .replace(/^type /, "")
                  .split(" as ")
                  .at(-1)!,
            ),
          )
          .filter(Boolean),
      );
    };
    const [pages, server] = await Promise.all([exported("src/runtime/index.ts"), exported("src/server/index.ts")]);
    expect(pages.size).toBeGreaterThan(20);
    expect(server.size).toBeGreaterThan(5);
    expect([...server].filter((name) => pages.has(name))).toEqual([]);
  });

  test("no two folders of src/server import each other: the concerns stand in layers over the request core", async () => {
    const edges = await serverFolderEdges();
    expect(edges.size).toBeGreaterThan(10);
    const both = [...edges.keys()].filter((edge) => edges.has(edge.split(" -> ").reverse().join(" -> ")));
    expect(both.flatMap((edge) => [...edges.get(edge)!])).toEqual([]);
  });

  test("each concern folder of src/server is listed in docs/explanation/architecture.md and imports only those below it", async () => {
    const doc = await Bun.file(join(ROOT, "docs/explanation/architecture.md")).text();
    const layers = [...doc.matchAll(/^([a-z]+)\/ {2,}\S/gm)].map((m) => m[1]!);
    const folders = new Set<string>();
    for await (const file of new Bun.Glob("src/server/*/**").scan({ cwd: ROOT })) folders.add(file.split("/")[2]!);
    expect([...folders].filter((folder) => !ABOVE_THE_LAYERS.includes(folder)).sort()).toEqual([...layers].sort());
    const upward = [...(await serverFolderEdges())].flatMap(([edge, imports]) => {
      const [from, to] = edge.split(" -> ").map((folder) => layers.indexOf(folder));
      return from! >= 0 && !(to! > from!) ? [...imports] : [];
    });
    expect(upward).toEqual([]);
  });

  test("one request, one context: a single side table keyed by the request in all of src/server, none by its cookie jar", async () => {
    const tables: string[] = [];
    for await (const file of new Bun.Glob("src/server/**/*.{ts,tsx}").scan({ cwd: ROOT })) {
      const text = await Bun.file(join(ROOT, file)).text();
      for (const _ of text.matchAll(/WeakMap<\s*(Request|Cookies)\b/g)) tables.push(file);
    }
    expect(tables).toEqual(["src/server/request/context.ts"]);
  });

  test("sees an import across the line, a type-only one included", () => {
    const app =
      'import type { Config } from "../../../src/server/config.ts";\nimport { x } from "brisk/runtime/outcome.ts";\n';
    expect(violations("test/fixtures/app/x.ts", app, appRule)).toHaveLength(2);
    const runtime =
      'import type {\n  Cookies,\n} from "../server/cookies/cookies.ts";\nexport type { Mode } from "../server/config/config.ts";\n';
    expect(violations("src/runtime/x.ts", runtime, runtimeRule)).toHaveLength(2);
    expect(
      violations("src/server/x.ts", 'const m = await import("../runtime/browser/navigate.ts");', serverRule),
    ).toHaveLength(1);
    expect(
      violations("src/app/x.ts", 'import { defineApp } from "brisk";\nimport { db } from "./db.server.ts";', appRule),
    ).toEqual([]);
    expect(
      violations(
        "test/e2e/x.test.ts",
        'import app from "#app";\nimport { store } from "../../src/app/lifecycle.server.ts";',
        notOnTheExamples,
      ),
    ).toHaveLength(2);
    expect(violations("test/server/x.test.ts", 'write(`import app from "#app";`);', notOnTheExamples)).toEqual([]);
  });
});
