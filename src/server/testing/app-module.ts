// app-module.ts (brisk/test): which app a test serves: the project's own (`#app`) unless it names another.
import { resolve } from "node:path";
import { loadAppModule } from "../build/app-module.ts";
import type { AppDefinition } from "../../runtime/app-definition.ts";

const ROOT = resolve(import.meta.dir, "../../..");

/** The absolute path of the module `#app` names in the project's package.json. */
export function projectAppModule(): string {
  return Bun.resolveSync("#app", ROOT);
}

export async function loadApp(appModule: string = projectAppModule()): Promise<AppDefinition> {
  return (await loadAppModule(appModule)).app;
}
