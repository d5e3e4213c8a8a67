// react-server-bun.ts: the binary gets React's Bun server renderer alone, without the Node modules it
// loads and never uses on the way to renderToReadableStream.
import type { BunPlugin } from "bun";
import { dirname, join } from "node:path";

const RENDERER = /\/react-dom\/cjs\/react-dom-server\.bun\.production\.js$/;

/** What the renderer takes from each Node module it requires, given without loading the module. */
const STAND_INS: Record<string, string> = {
  // Only for `new util.TextEncoder()`, which Bun has as a global.
  util: "{ TextEncoder: globalThis.TextEncoder }",
  // Only renderToPipeableStream builds a Readable; Brisk streams through renderToReadableStream.
  stream: `{ Readable: class {
    constructor() {
      throw new Error("Brisk's binary bundles renderToReadableStream only: renderToPipeableStream needs node:stream");
    }
  } }`,
  // Required for its side effects only; it has none the renderer reads.
  crypto: "{}",
};
const KEPT = new Set(["react", "react-dom"]);

/**
 * Loading `react-dom/server` in Bun costs cold start beyond the renderer itself:
 * - its entry also loads the legacy renderToString build, a second copy of the renderer;
 * - the renderer requires `util`, `stream` and `crypto`, and Bun builds Node's stream internals to
 *   evaluate them, for APIs Brisk does not call.
 * Bun resolves Node's modules before any plugin sees them, so the renderer's requires are replaced in
 * its source. The build fails here rather than guess if a React upgrade requires another module.
 */
export function reactServerForBun(root: string): BunPlugin {
  return {
    name: "brisk:react-server-bun",
    setup(build) {
      const renderer = join(
        dirname(Bun.resolveSync("react-dom/server", root)),
        "cjs/react-dom-server.bun.production.js",
      );
      build.onResolve({ filter: /^react-dom\/server$/ }, () => ({ path: renderer }));
      build.onLoad({ filter: RENDERER }, async ({ path }) => {
        const source = await Bun.file(path).text();
        const contents = source.replace(/require\("([^"]+)"\)/g, (call, name: string) => {
          if (KEPT.has(name)) return call;
          const standIn = STAND_INS[name];
          if (!standIn)
            throw new Error(`${path} requires "${name}", which src/server/build/react-server-bun.ts does not provide`);
          return standIn;
        });
        return { contents, loader: "js" };
      });
    },
  };
}
