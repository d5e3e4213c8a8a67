// app-context.ts: the app definition, the navigation and the server's streamed values, as the one React context
// of the framework's components (the page, the outcome pages, the document parts, links and forms).
import { createContext, useContext } from "react";
import type { AppDefinition } from "./app-definition.ts";
import type { Navigation } from "./navigation.ts";
import type { DeferredSettlement } from "./page-payload.ts";
import { routeTree, type RouteTree } from "./route-tree.ts";

export interface AppRuntime {
  app: AppDefinition;
  /** The app's routes, compiled once: the server names the matched ones by id. */
  tree: RouteTree;
  /** The location and page showing; one context with the rest: every render needs both, so one provider. */
  navigation: Navigation;
  /** Streamed values of the page the server rendered; they keep their place when the client moves on. */
  settlements: ReadonlyArray<readonly [string, Promise<DeferredSettlement>]>;
  /**
   * Server only: the text of the stylesheets pages carry inline, by URL. The client has none: React adopts
   * the server's <style> by its URL and never needs the text.
   */
  inlineStyles?: ReadonlyMap<string, string>;
  /**
   * Server only: told of each route level as it starts to render, so a render that fails before its shell
   * is out can be shown by the fallback of the route it failed in (server-side rendering has no boundaries).
   */
  onLevel?(depth: number): void;
  /**
   * Server only: a streamed value's settlement as the inline script that delivers it holds it. The codec
   * stays on the server: the browser hydrates the script the server wrote and never writes one itself.
   */
  scriptValue?(settlement: DeferredSettlement): string;
}

/** The runtime of these parts: the app's compiled routes added, one object (App's props are the parts). */
export function appRuntime(parts: Omit<AppRuntime, "tree">): AppRuntime {
  return { ...parts, tree: routeTree(parts.app.routes) };
}

/**
 * Whether this is the server's render, the only one told of levels. React's server renderer calls no error boundary
 * and nothing moves there: the parts that only catch, or only show a failed navigation, are left out of it. Each
 * wraps a single child or renders nothing, so the HTML and useId's ids are those of the browser's tree.
 */
export function isServerRender(runtime: AppRuntime): boolean {
  return runtime.onLevel !== undefined;
}

export const AppContext = createContext<AppRuntime | null>(null);

export function useAppRuntime(): AppRuntime {
  const runtime = useContext(AppContext);
  if (!runtime) throw new Error("Brisk: AppContext is missing; render inside <App>");
  return runtime;
}
