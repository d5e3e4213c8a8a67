// pipeline.test.ts: docs/explanation/request-flow.md's "one screen" is the request pipeline's own lines, in their
// order: a step moved, added or dropped in src/server/pipeline.ts without the doc fails here.
import { expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const read = (path: string) => Bun.file(join(ROOT, path)).text();

/** The text of a function's body, its comments left out. */
function bodyOf(source: string, name: string): string {
  const start = source.indexOf(`function ${name}(`);
  expect(start).toBeGreaterThanOrEqual(0);
  const open = source.indexOf(" {\n", start) + 3;
  const close = source.indexOf("\n}\n", open);
  return source.slice(open, close).replace(/\/\/.*$/gm, "");
}

/** The steps the pipeline runs, by their names in the code, in the order they appear. */
function codeSteps(source: string): string[] {
  // The functions it imports from the server's folders (types left out).
  const imported = [...source.matchAll(/^import \{ ([^}]+) \} from "\.\/[^"]+";$/gm)]
    .flatMap(([, names]) => names!.split(", "))
    .filter((name) => !name.startsWith("type "));
  const body = bodyOf(source, "serve") + bodyOf(source, "sent");
  const steps = [...body.matchAll(new RegExp(`\\b(?:steps\\.(\\w+)\\(|(${imported.join("|")})\\(|(route)\\b)`, "g"))];
  return [...new Set(steps.map(([, step, call, route]) => (step ?? call ?? route)!))];
}

/** The first name of each numbered item of the doc's "One request, in one screen". */
function docSteps(doc: string): string[] {
  const section = doc.slice(
    doc.indexOf("## One request, in one screen"),
    doc.indexOf("\n## ", doc.indexOf("## One request")),
  );
  return [...section.matchAll(/^\d+\. `(\w+)`/gm)].map(([, name]) => name!);
}

test("the request-flow doc lists the pipeline's steps, in the order the code runs them", async () => {
  const code = codeSteps(await read("src/server/pipeline.ts"));
  expect(code).toEqual([
    "contextOf",
    "hostRefusal",
    "isPagePath",
    "stored",
    "scope",
    "route",
    "addMissingHeaders",
    "logRequest",
  ]);
  expect(docSteps(await read("docs/explanation/request-flow.md"))).toEqual(code);
});

test("create-app.ts registers the pipeline as the one wrap, and no global hook but the error handler (and dev's reload)", async () => {
  const source = await read("src/server/create-app.ts");
  expect(source.match(/\.wrap\(/g)).toHaveLength(1);
  expect(source).not.toMatch(
    /\.(onRequest|onBeforeHandle|onAfterHandle|mapResponse|onAfterResponse|onParse|onTransform)\(/,
  );
  const src = await Array.fromAsync(new Bun.Glob("src/server/**/*.ts").scan(ROOT));
  const global = [];
  for (const file of src) if (/as: "global"/.test(await read(file))) global.push(file);
  // Development's reload script goes into the HTML of whatever answers, from a plugin outside the app.
  expect(global.sort()).toEqual(["src/server/create-app.ts", "src/server/dev/dev-reload.ts"]);
});
