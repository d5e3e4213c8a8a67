// app-definition.ts: what an app hands to Brisk (its routes, outcome pages, document and API), and the
// `defineApp` that declares it. The server, the client entry and the build all take this one object.
import type { AnyElysia } from "elysia";
import type { ComponentType } from "react";
import type { AppServer } from "./app-server.ts";
import type { Fallbacks } from "./fallback-pages.ts";
import type { RouteDefinition } from "./route.ts";

export interface AppDefinition {
  routes: readonly RouteDefinition[];
  fallbacks: Fallbacks;
  /**
   * The `<html>` shell. It renders `<Links />` in its head and `<PageContent />` in its body (from `brisk`);
   * everything else in it is the app's own.
   */
  Document: ComponentType;
  /** Stylesheets every page links, relative to the app's folder (the folder of the module that defines the app). */
  styles?: readonly string[];
  /**
   * Elysia routes served before the pages: JSON endpoints under `/api/`, webhooks. Import it from a
   * `*.server.ts` module: the browser build replaces those with `undefined` stand-ins.
   */
  api?: AnyElysia;
  /** The app's own start and stop on the server (a database, say); from a `*.server.ts` module like `api`. */
  server?: AppServer;
  /**
   * Who may show the pages in a frame: CSP `frame-ancestors` sources (`'self'`, `https://partner.example`).
   * No one when omitted, against clickjacking.
   */
  frameAncestors?: readonly string[];
}

/** Declares the app; the identity function is there for the types and for one place to read. */
export function defineApp(app: AppDefinition): AppDefinition {
  return app;
}
