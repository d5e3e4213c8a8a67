// app-context.ts: the app definition and the server's streamed values, as React context for the framework's
// components (the page, the outcome pages, the document parts).
import { createContext, useContext } from "react";
import type { AppDefinition } from "./app-definition.ts";
import type { DeferredSettlement } from "./page-payload.ts";
import type { RouteDefinition } from "./route.ts";

export interface AppRuntime {
  app: AppDefinition;
  /** The route the server matched, by its pattern. */
  routeFor(pattern: string | null): RouteDefinition | undefined;
  /** Streamed values of the page the server rendered; they keep their place when the client moves on. */
  settlements: ReadonlyArray<readonly [string, Promise<DeferredSettlement>]>;
  /**
   * Server only: the text of the stylesheets pages carry inline, by URL. The client has none: React adopts
   * the server's <style> by its URL and never needs the text.
   */
  inlineStyles?: ReadonlyMap<string, string>;
}

const routeMaps = new WeakMap<AppDefinition, Map<string, RouteDefinition>>();

/** The route lookup is built once per app, not per render. */
export function appRuntime(
  app: AppDefinition,
  settlements: AppRuntime["settlements"],
  inlineStyles?: AppRuntime["inlineStyles"],
): AppRuntime {
  let routes = routeMaps.get(app);
  if (!routes) routeMaps.set(app, (routes = new Map(app.routes.map((r) => [r.path, r]))));
  const byPattern = routes;
  return { app, settlements, inlineStyles, routeFor: (pattern) => (pattern === null ? undefined : byPattern.get(pattern)) };
}

export const AppContext = createContext<AppRuntime | null>(null);

export function useAppRuntime(): AppRuntime {
  const runtime = useContext(AppContext);
  if (!runtime) throw new Error("Brisk: AppContext is missing; render inside <App>");
  return runtime;
}
