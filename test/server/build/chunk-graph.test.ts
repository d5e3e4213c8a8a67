// The chunks a code-split page needs, read from the client build's metafile.
import { expect, test } from "bun:test";
import { staticClosure, staticImports } from "../../../src/server/build/chunk-graph.ts";

const outputs = {
  "./entry-a.js": {
    imports: [
      { path: "./chunk-react.js", kind: "import-statement" },
      { path: "./chunk-page.js", kind: "dynamic-import" },
    ],
  },
  "./chunk-react.js": { imports: [{ path: "./chunk-scheduler.js", kind: "import-statement" }] },
  "./chunk-scheduler.js": { imports: [] },
  "./chunk-page.js": {
    imports: [
      { path: "./chunk-react.js", kind: "import-statement" },
      { path: "./chunk-chart.js", kind: "import-statement" },
      { path: "./chunk-later.js", kind: "dynamic-import" },
    ],
  },
  "./chunk-chart.js": {
    imports: [
      { path: "./chunk-scheduler.js", kind: "import-statement" },
      { path: "./chunk-page.js", kind: "import-statement" },
    ],
  },
  "./chunk-later.js": { imports: [] },
};

test("a chunk's closure follows static imports transitively, through cycles, and never dynamic ones", () => {
  const graph = staticImports(outputs);
  expect(staticClosure(graph, "entry-a.js")).toEqual(["entry-a.js", "chunk-react.js", "chunk-scheduler.js"]);
  expect(staticClosure(graph, "chunk-page.js")).toEqual([
    "chunk-page.js",
    "chunk-react.js",
    "chunk-chart.js",
    "chunk-scheduler.js",
  ]);
});
