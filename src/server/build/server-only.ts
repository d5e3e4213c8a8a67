// server-only.ts: keeps `*.server.ts` modules (route loaders and everything they import) out of the browser build.
import type { BunPlugin } from "bun";

/** `Home.server.ts`, `orders.server.tsx`: modules that run on the server only. */
export const SERVER_ONLY_MODULE = /\.server\.tsx?$/;

const scanners = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

/**
 * Replaces each `*.server.ts` module with one that exports the same names as `undefined` and imports
 * nothing. routes.tsx can still name a route's loader, while the loader and its imports (data, database
 * clients, secrets) never reach the browser, which asks the server for page data instead.
 */
export const serverOnlyModules: BunPlugin = {
  name: "brisk:server-only-modules",
  setup(build) {
    build.onLoad({ filter: SERVER_ONLY_MODULE }, async ({ path }) => {
      const { exports } = scanners[path.endsWith("x") ? "tsx" : "ts"].scan(await Bun.file(path).text());
      const contents = exports
        .map((name) => (name === "default" ? "export default undefined;" : `export const ${name} = undefined;`))
        .join("\n");
      return { contents, loader: "js" };
    });
  },
};
