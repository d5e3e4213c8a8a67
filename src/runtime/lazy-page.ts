// lazy-page.ts: a code-split route component that can be loaded before it renders.
import { lazy, type ComponentType } from "react";
import { retryingImport } from "./retry-import.ts";

export type LazyPage = ComponentType & {
  /** The module `load` imports, relative to the app's folder: the build finds its chunk by this name. */
  readonly module: string;
  preload(): Promise<unknown>;
};

/**
 * `lazyPage("pages/X.tsx", () => import("./pages/X.tsx"))`. The client preloads it before hydrating or
 * committing a navigation, so a route never suspends into a blank screen, and a failed load can be
 * retried. `module` names the same file as data, because the bundler needs the literal `import()` and
 * the build cannot see inside a function: from it the server preloads the chunk in the page's HTML.
 */
export function lazyPage(module: string, load: () => Promise<{ default: ComponentType }>): LazyPage {
  const preload = retryingImport(load);
  return Object.assign(lazy(preload), { module, preload });
}

export function isLazyPage(component: unknown): component is LazyPage {
  return typeof (component as Partial<LazyPage> | null)?.preload === "function";
}
