// wouter-react.ts: points wouter's React compatibility code at React 19's own, so the browser build drops
// what that code keeps alive for nothing.
import type { BunPlugin } from "bun";

const NAMESPACE_IMPORT = 'import * as React from "react";';
/** What wouter's react-deps.js reads from that namespace, as its source spells it. */
const READS = new Set([
  "React.useEffect",
  "React.useInsertionEffect",
  'React["useInsertion" + "Effect"]',
  "React.useLayoutEffect",
  "React.useRef",
]);
/** The hooks it reads, named, so the rest of React's exports can be left out. */
const NAMED_IMPORT = [
  'import { useEffect as e, useInsertionEffect as i, useLayoutEffect as l, useRef as r } from "react";',
  "const React = { useEffect: e, useInsertionEffect: i, useLayoutEffect: l, useRef: r };",
].join("\n");

/**
 * - wouter imports use-sync-external-store's shim, which hands out React's own hook from React 18 on and
 *   otherwise a copy of it: importing React itself drops the shim.
 * - wouter's react-deps.js reads React through `import * as React` with a computed key (for React 17), which keeps
 *   every export of React in the bundle, unused (bench/README.md, figures the source carried). It gets the four
 *   hooks it reads as named imports instead; if a new wouter reads anything else, the build fails here rather than
 *   ship a hook that is missing.
 */
export function wouterOnReact(root: string): BunPlugin {
  return {
    name: "brisk:wouter-on-react",
    setup(build) {
      const react = Bun.resolveSync("react", root);
      build.onResolve({ filter: /^use-sync-external-store\/shim(\/index\.js)?$/ }, () => ({ path: react }));
      build.onLoad({ filter: /\/node_modules\/wouter\/src\/react-deps\.js$/ }, async ({ path }) => {
        const source = await Bun.file(path).text();
        const unknown = (source.match(/\bReact(?:\.\w+|\[[^\]]*\])/g) ?? []).filter((read) => !READS.has(read));
        if (!source.includes(NAMESPACE_IMPORT) || unknown.length) {
          throw new Error(
            `${path} reads React in a way src/server/build/wouter-react.ts does not provide: ${unknown.join(", ") || "no namespace import"}`,
          );
        }
        return { contents: source.replace(NAMESPACE_IMPORT, NAMED_IMPORT), loader: "js" };
      });
    },
  };
}
