// server-only.ts: keeps `*.server.ts` modules (route loaders and everything they import) out of the browser build.
import type { BunPlugin } from "bun";

/** `Home.server.ts`, `orders.server.tsx`: modules that run on the server only. */
export const SERVER_ONLY_MODULE = /\.server\.tsx?$/;

/** Resolves to nothing: the build fails, naming it. */
const UNSCANNED = "brisk: a server-only module the browser build could not scan";

const scanners = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

/**
 * Replaces each `*.server.ts` module with one that exports the same names as `undefined` and imports
 * nothing. routes.tsx can still name a route's loader, while the loader and its imports (data, database
 * clients, secrets) never reach the browser, which asks the server for page data instead.
 *
 * In development the stand-in accepts its own hot updates: a loader's save changes nothing the browser
 * runs, and the dev server reloads the open pages itself once the server code is rebuilt. Without it, Bun's
 * runtime would find no importer that accepts the update and log advice to call import.meta.hot.accept.
 * Production builds drop the call.
 */
export const serverOnlyModules: BunPlugin = {
  name: "brisk:server-only-modules",
  setup(build) {
    build.onLoad({ filter: SERVER_ONLY_MODULE }, async ({ path }) => {
      const loader = path.endsWith("x") ? "tsx" : "ts";
      const source = await Bun.file(path).text();
      let exports: string[];
      try {
        ({ exports } = scanners[loader].scan(source));
      } catch {
        // A syntax error: the bundler parses the module itself, so its error names the file, line and column
        // with a code frame (the scanner's names none of them). Should the bundler read what the scanner could
        // not, the import after it fails the build instead: a module that was not scanned never ships.
        return { contents: `${source}\n;import ${JSON.stringify(UNSCANNED)};`, loader };
      }
      const stubs = exports.map((name) =>
        name === "default" ? "export default undefined;" : `export const ${name} = undefined;`,
      );
      return { contents: [...stubs, "import.meta.hot.accept();"].join("\n"), loader: "js" };
    });
  },
};
