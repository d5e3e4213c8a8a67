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
export type Loader = (ctx: LoaderContext) => unknown;

export interface RouteDefinition {
  /** A wouter pattern: `/users/:id`, `/files/*`. */
  path: string;
  /**
   * The page. A code-split one is `lazyPage("pages/X.tsx", () => import("../../app/runtime/pages/X.tsx"))`: the first
   * argument names the imported module relative to `src/app`, so the server can preload its chunk.
   */
  component: ComponentType;
  /**
   * Runs on the server only. Import it from a `*.server.ts` module: the browser build replaces those
   * with `undefined` stand-ins, so neither the loader nor what it imports ships to the browser.
   */
  loader?: Loader;
  /** Stylesheets of this route only, relative to `src/app`, linked before it renders. */
  styles?: string[];
}
