// route.ts: the types of the route table and of the loader and action contracts.
import type { ComponentType } from "react";
import type { Cookies } from "./cookies.ts";

export interface LoaderContext<Params extends Record<string, string> = Record<string, string>> {
  /** Decoded path parameters, e.g. `{ id: "42" }` for `/users/:id`. */
  params: Params;
  search: URLSearchParams;
  url: URL;
  /** The request's headers. */
  headers: Headers;
  /**
   * The request's cookies (`get`, `getSigned`), and the ones the answer sets (`set`, `setSigned`, `delete`):
   * HttpOnly, SameSite=Lax, Path=/ and, in production, Secure unless the call says otherwise. They reach
   * the browser on the document and on page data alike. A tampered signed cookie reads as absent.
   */
  cookies: Cookies;
  /**
   * Sets a header of the answer, on the document and on page data alike: `Cache-Control` for a public
   * page, say. Outcome and error pages ignore `Cache-Control` (they are never cached).
   */
  setHeader(name: string, value: string): void;
  /** Aborted when the visitor goes away; pass it to fetch and timers. */
  signal: AbortSignal;
}

/** A form post's fields and files, or a JSON value, as read within ACTION_MAX_BYTES. */
export type ActionBody = { kind: "form"; form: FormData } | { kind: "json"; json: unknown };

export interface ActionContext<Params extends Record<string, string> = Record<string, string>> extends LoaderContext<Params> {
  body: ActionBody;
}

/**
 * Runs on `POST` to the page's URL. Returns data for the page to show (`data(value, { status: 422 })`
 * for a failed validation), or throws an outcome (`redirect()` from an action is 303) or an error.
 */
export type Action<Params extends Record<string, string> = Record<string, string>> = (ctx: ActionContext<Params>) => unknown;

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
  /** Runs on `POST` to the page, from a `*.server.ts` module like the loader; the loader runs after it. */
  action?(ctx: ActionContext): unknown;
  /** Stylesheets of this route only, relative to `src/app`, linked before it renders. */
  styles?: string[];
  /**
   * Rendered once when a production server starts, then served from memory with a fresh nonce per response.
   * Only for a path without parameters whose loader reads no headers, cookies or search (that fails the start).
   */
  prerender?: boolean;
  /** With `prerender`: the stored page is rendered again in the background once it is this many seconds old. */
  revalidate?: number;
}
