// route.ts: the types of the route table and of the loader contract.
import type { ComponentType } from "react";

export interface LoaderContext<Params extends Record<string, string> = Record<string, string>> {
  /** Decoded path parameters, e.g. `{ id: "42" }` for `/users/:id`. */
  params: Params;
  search: URLSearchParams;
  url: URL;
  headers: Headers;
  cookies: Record<string, string>;
  /** Aborted when the visitor goes away; pass it to fetch and timers. */
  signal: AbortSignal;
}

/**
 * Returns data for the page, or throws an outcome (`notFound()`, `redirect()`…) or an error.
 * Top-level values that are promises are streamed: the shell goes out first, and the page
 * reads them with `use()` inside a `<Suspense>`.
 */
export type Loader<Params extends Record<string, string> = Record<string, string>> = (ctx: LoaderContext<Params>) => unknown;

export interface RouteDefinition {
  /** A wouter pattern: `/users/:id`, `/files/*`. */
  path: string;
  /**
   * The page. A code-split one is `lazyPage("pages/X.tsx", () => import("./pages/X.tsx"))`: the first
   * argument names the imported module relative to the app's folder, so the server can preload its chunk.
   */
  component: ComponentType;
  /**
   * Runs on the server only. Import it from a `*.server.ts` module: the browser build replaces those
   * with `undefined` stand-ins, so neither the loader nor what it imports ships to the browser.
   */
  // A method, so that a loader typed for its own params (`LoaderContext<{ id: string }>`) fits: the route
  // table is the one place that pairs a pattern with its loader, and the matcher fills what the pattern names.
  loader?(ctx: LoaderContext): unknown;
  /** Stylesheets of this route only, relative to `src/app`, linked before it renders. */
  styles?: string[];
}
