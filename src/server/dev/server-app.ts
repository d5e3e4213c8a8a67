// server-app.ts: development only: the server side of the app (the app and the framework's server around it)
// built on every save and imported afresh, so the next request runs the saved code while the process, and
// with it Bun's development server and the browser's hot-update connection, stays up.
//
// Everything under src/ that the build reaches is bundled; packages stay imports of the one copy the
// process loads. The dev server's own modules (src/server/dev, the config) are loaded by the process itself:
// an edit there restarts it (bun --watch).
import type { BunPlugin } from "bun";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { appModuleAlias } from "../build/app-module.ts";
import { SERVER_ONLY_MODULE } from "../build/server-only.ts";
import type { AppDefinition } from "../../runtime/app-definition.ts";
import type { startApp } from "../app-start.ts";
import type { createApp } from "../create-app.ts";
import { importedAssets } from "../assets/imported-assets.ts";

/** What a build of src/server/dev/server-entry.ts exports. */
export interface ServerCode {
  app: AppDefinition;
  createApp: typeof createApp;
  startApp: typeof startApp;
}

export interface ServerApp extends ServerCode {
  /** Every module under src/ in this build (absolute paths). */
  modules: ReadonlySet<string>;
  /**
   * Those in the browser's bundle too (`*.server.ts` modules as the browser's stand-ins, which import
   * nothing). For an edit to one of these Bun's development server updates the open pages, or reloads
   * them; an edit to any other only the server sees.
   */
  browserModules: ReadonlySet<string>;
}

/**
 * Whether an edit to `file` changes what this build's server runs and nothing the browser runs: a module the
 * browser's bundle lacks, or one it has a stand-in of (which accepts its hot update and changes nothing).
 * The open pages see such an edit only if the dev server reloads them.
 */
export function onlyServerSees(app: ServerApp | undefined, file: string): boolean {
  return Boolean(app?.modules.has(file) && (!app.browserModules.has(file) || SERVER_ONLY_MODULE.test(file)));
}

export interface ServerAppOptions {
  /** src/server/dev/server-entry.ts. */
  entry: string;
  /** The module whose default export is the app (`#app`). */
  appModule: string;
  /** The browser's entry modules: the browser's bundle is what they reach. */
  browserEntries: readonly string[];
  /** Each build goes to a folder of its own in here: an imported module never changes under the process. */
  outdir: string;
  /** Where files that components import (images, fonts) are written under their hashed names. */
  importedDir: string;
  /** The sources: a save under here may change what the next build makes. */
  srcDir: string;
}

export interface ServerAppBuilder {
  /** Builds and imports the server code; throws what does not build or load (the message names the file and line). */
  build(): Promise<ServerApp>;
  /** Whether a save of `path` can change what the next build makes: after a good build, only its own modules can. */
  affects(path: string): boolean;
  /**
   * Files saved since the last build began, good or not, that it `affects`. A file watcher can report a
   * save after the browser, reloaded by Bun's development server for that save, already asks for the
   * page: this tells at once.
   */
  saved(): string[];
}

/**
 * An app reaches Brisk by the package's own name (`brisk`, `brisk/server`): bundled with the framework's server
 * around it, not left a package import, or the process would load a second copy of the runtime beside the
 * bundled one (and a page would render outside the server's AppContext).
 */
const briskBundled: BunPlugin = {
  name: "brisk:self-reference",
  setup(build) {
    build.onResolve({ filter: /^brisk(\/|$)/ }, ({ path, importer }) => ({
      path: Bun.resolveSync(path, dirname(importer)),
    }));
  },
};

const modified = (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

/** Each file under `dir` → when it was last modified. */
function modifiedTimes(dir: string): Map<string, number | undefined> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return new Map(files.map((e) => join(e.parentPath, e.name)).map((path) => [path, modified(path)]));
}

const scanners = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

/**
 * The project's modules (packages aside) the browser's entries reach, read from their imports as the
 * bundler follows them: `#app` is the app's module, and a `*.server.ts` module is reached (the browser
 * gets a stand-in) but leads nowhere.
 */
function browserGraph(entries: readonly string[], appModule: string): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
    if (seen.has(path) || path.includes("/node_modules/")) continue;
    seen.add(path);
    const scanner = /\.[jt]sx$/.test(path) ? scanners.tsx : /\.[jt]s$/.test(path) ? scanners.ts : undefined;
    if (!scanner || SERVER_ONLY_MODULE.test(path)) continue;
    let imports: ReturnType<typeof scanner.scanImports>;
    try {
      imports = scanner.scanImports(readFileSync(path, "utf8"));
    } catch {
      continue; // A syntax error, or a file gone: the build reports it.
    }
    for (const { path: specifier } of imports) {
      try {
        queue.push(specifier === "#app" ? appModule : Bun.resolveSync(specifier, dirname(path)));
      } catch {
        // Not found: the build reports it.
      }
    }
  }
  return seen;
}

export function createServerAppBuilder({
  entry,
  appModule,
  browserEntries,
  outdir,
  importedDir,
  srcDir,
}: ServerAppOptions): ServerAppBuilder {
  const emitted = new Set<string>();
  let builds = 0;
  let previous: string | undefined;
  let before = new Map<string, number | undefined>();
  /** The modules of the last build, if it was good: a failed one may have missed a file not written yet. */
  let modules: ReadonlySet<string> | undefined;
  // This process imports none of the previous one's builds, and writes again what components import.
  rmSync(outdir, { recursive: true, force: true });
  rmSync(importedDir, { recursive: true, force: true });

  async function build(): Promise<ServerApp> {
    // Before the build reads them: a save from now on makes these differ.
    before = modifiedTimes(srcDir);
    modules = undefined;
    const result = await Bun.build({
      entrypoints: [entry],
      outdir: join(outdir, String(++builds)),
      target: "bun",
      format: "esm",
      packages: "external",
      // Stacks in the terminal and on error pages point at the sources.
      sourcemap: "linked",
      metafile: true,
      plugins: [appModuleAlias(appModule), briskBundled, importedAssets({ dir: importedDir, emitted })],
      throw: false,
    });
    if (!result.success)
      throw new AggregateError(result.logs, `the server code does not build:\n${result.logs.map(String).join("\n")}`);
    const output = result.outputs.find((o) => o.kind === "entry-point")!.path;
    const code = (await import(output)) as Partial<ServerCode>;
    if (!code.app?.routes)
      throw new Error(`${appModule} does not export an app as its default (export default defineApp({ … }))`);
    // The previous build can go once nothing serves it any more: out of the module registry, it is garbage.
    if (previous) delete require.cache[previous];
    previous = output;
    // The metafile names inputs relative to the working directory.
    modules = new Set(Object.keys(result.metafile!.inputs).map((p) => resolve(p)));
    return {
      app: code.app,
      createApp: code.createApp!,
      startApp: code.startApp!,
      modules,
      browserModules: browserGraph(browserEntries, appModule),
    };
  }

  const affects = (path: string) => !modules || modules.has(path);

  function saved(): string[] {
    const now = modifiedTimes(srcDir);
    return [...new Set([...before.keys(), ...now.keys()])].filter(
      (path) => affects(path) && now.get(path) !== before.get(path),
    );
  }

  return { build, affects, saved };
}
