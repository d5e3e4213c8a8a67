// app-module.ts (brisk/test): which app a test serves: the project's own (`#app`) unless it names another.
import { loadAppModule } from "../build/app-module.ts";
import type { AppDefinition } from "../../runtime/app-definition.ts";

export async function loadApp(appModule?: string): Promise<AppDefinition> {
  return (await loadAppModule(appModule)).app;
}
