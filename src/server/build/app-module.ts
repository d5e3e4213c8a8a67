// app-module.ts: where the app is, for the build and the dev server: the module package.json's "imports"
// names `#app`, or another one (a test's fixture app), and a plugin that points `#app` at it.
import type { BunPlugin } from "bun";
import { dirname, resolve } from "node:path";
import type { AppDefinition } from "../../runtime/app-definition.ts";

const ROOT = resolve(import.meta.dir, "../../..");

export interface AppModule {
  /** Absolute path of the module whose default export is the app. */
  path: string;
  /** Its folder: route stylesheets and `lazyPage` names are relative to it. */
  dir: string;
  app: AppDefinition;
}

/** The absolute path of the module `#app` names in the project's package.json: the project's own app. */
export function projectAppModule(): string {
  return Bun.resolveSync("#app", ROOT);
}

export async function loadAppModule(path: string = projectAppModule()): Promise<AppModule> {
  const app = ((await import(path)) as { default?: AppDefinition }).default;
  if (!app?.routes) throw new Error(`${path} does not export an app as its default (export default defineApp({ … }))`);
  return { path, dir: dirname(path), app };
}

/** Resolves `#app` (the client entry's import, and main.ts's in the binary) to the given module. */
export function appModuleAlias(path: string): BunPlugin {
  return {
    name: "brisk:app-module",
    setup(build) {
      build.onResolve({ filter: /^#app$/ }, () => ({ path }));
    },
  };
}
