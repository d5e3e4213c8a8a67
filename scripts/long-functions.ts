// long-functions.ts: `bun scripts/long-functions.ts [maxLines]` lists every function, arrow, method and accessor in
// src/ (the app, src/app, left out) longer than maxLines (80 unless given), as file:line, length and name, and exits
// 1 if there is one. A long closure hides its steps: name them, or turn the closure into module functions over a
// state record. Lines run from the function's first token to its last, both counted; a nested function counts in its
// parent too. It parses with TypeScript's own parser: TypeScript 7's API drives the compiler binary, and its sync
// client needs Node's pipe internals, so this uses the async one.
import { API } from "typescript/unstable/async";
import { SyntaxKind, type Node, type SourceFile } from "typescript/unstable/ast";
import { join, relative } from "node:path";

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

type LongFunction = { file: string; line: number; lines: number; name: string };

const maxLines = Number(process.argv[2] ?? 80);
if (!Number.isInteger(maxLines) || maxLines < 1) {
  console.error(`usage: bun scripts/long-functions.ts [maxLines]; got ${process.argv[2]}`);
  process.exit(2);
}

const root = process.cwd();
// The scan reads syntax alone: a program of src/'s own files, nothing resolved or typed. Opening tsconfig.json
// instead loads every library's declarations too, which took most of the script's two seconds.
const CONFIG = join(root, "long-functions.tsconfig.json");
const SRC_ONLY = JSON.stringify({
  compilerOptions: { noResolve: true, noLib: true, types: [] },
  include: ["src"],
  exclude: ["src/app"],
});
// The config exists only here: every other read falls through to the disk.
const api = new API({ cwd: root, fs: { readFile: (name) => (name === CONFIG ? SRC_ONLY : undefined) } });
const found: LongFunction[] = [];
try {
  const snapshot = await api.updateSnapshot({ openProjects: [CONFIG] });
  const project = snapshot.getProjects()[0];
  if (!project) throw new Error("src/ opened no project");
  for (const fileName of await project.program.getSourceFileNames()) {
    const file = relative(root, fileName);
    const source = await project.program.getSourceFile(fileName);
    if (source) found.push(...longFunctionsOf(source, file));
  }
} finally {
  await api.close();
}

found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${f.file}:${f.line}  ${f.lines} lines  ${f.name}`);
if (found.length > 0) {
  console.error(`${found.length} function(s) over ${maxLines} lines in src/`);
  process.exit(1);
}

function longFunctionsOf(source: SourceFile, file: string): LongFunction[] {
  const long: LongFunction[] = [];
  const visit = (node: Node): void => {
    if (FUNCTION_KINDS.has(node.kind)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > maxLines) long.push({ file, line: first + 1, lines, name: nameOf(node, source) });
    }
    node.forEachChild(visit);
  };
  source.forEachChild(visit);
  return long;
}

// A function's own name, else the name it is bound to (`const f = () => …`, `{ f: () => … }`), else its place.
function nameOf(node: Node, source: SourceFile): string {
  const named = (node as { name?: Node }).name ?? (node.parent as { name?: Node }).name;
  if (named) return named.getText(source);
  if (node.parent.kind === SyntaxKind.CallExpression) return "(callback)";
  return "(anonymous)";
}
