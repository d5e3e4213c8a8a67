// chunk-graph.ts: which output files a chunk needs before it can run, from the client build's metafile.
import { basename } from "node:path";

/** The part of Bun's metafile outputs this reads. */
export type BuildOutputs = Record<string, { imports: ReadonlyArray<{ path: string; kind: string }> }>;

/**
 * Output file → the files it imports with `import … from`: the browser fetches those before running it.
 * The build writes every file into one folder, so a base name identifies a file.
 */
export function staticImports(outputs: BuildOutputs): Map<string, string[]> {
  return new Map(
    Object.entries(outputs).map(([path, out]) => [
      basename(path),
      out.imports.filter((i) => i.kind === "import-statement").map((i) => basename(i.path)),
    ]),
  );
}

/** `from` and every file its static imports reach, `from` first. */
export function staticClosure(graph: ReadonlyMap<string, readonly string[]>, from: string): string[] {
  const seen = new Set([from]);
  for (const file of seen) for (const next of graph.get(file) ?? []) seen.add(next);
  return [...seen];
}
