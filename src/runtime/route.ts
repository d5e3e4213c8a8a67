// route.ts: the types of the route table and of the loader and action contracts.
import type { TObject } from "@sinclair/typebox";
import type { ComponentType } from "react";
import type { Fallbacks } from "./fallback-pages.ts";
import type { Cookies } from "./cookies.ts";
import type { RouterContextProvider } from "./router-context.ts";
import type { ShouldRevalidateArgs } from "./should-revalidate.ts";

/** The search a level without a `search` schema is given: nothing parsed, and no field to read. */
export type NoQuery = Record<never, never>;

export interface LoaderContext<
  Params extends Record<string, string> = Record<string, string>,
  Query extends object = Record<string, unknown>,
> {
  /** Decoded path parameters of this route and the layouts above it, e.g. `{ id: "42" }` for `/users/:id`. */
  params: Params;
  /** The search as it came, every key; `query` is this level's, parsed by its schema. */
  search: URLSearchParams;
  /**
   * The search parsed by this route's `search` schema: each field converted and checked, its default where it is
   * missing or invalid; `{}` for a route without one. Typed by the schema through `route()`.
   */
  query: Query;
  url: URL;
  /** The request's headers. */
  headers: Headers;
  /**
   * The request's cookies (`get`, `getSigned`), and the ones the response sets (`set`, `setSigned`, `delete`):
   * HttpOnly, SameSite=Lax, Path=/ and, in production, Secure unless the call says otherwise. They reach
   * the browser on the document and on page data alike. A tampered signed cookie reads as absent.
   */
  cookies: Cookies;
  /**
   * Sets a header of the response, on the document and on page data alike: `Cache-Control` for a public
   * page, say. Outcome and error pages ignore `Cache-Control` (they are never cached).
   */
  setHeader(name: string, value: string): void;
  /** Aborted when the visitor goes away; pass it to fetch and timers. */
  signal: AbortSignal;
  /** What the middleware of this route and the routes above it put there for this request (`context.get(userContext)`). */
  context: RouterContextProvider;
}

/** A form post's fields and files, or a JSON value, as read within ACTION_MAX_BYTES. */
export type ActionBody = { kind: "form"; form: FormData } | { kind: "json"; json: unknown };

export interface ActionContext<
  Params extends Record<string, string> = Record<string, string>,
  Query extends object = Record<string, unknown>,
> extends LoaderContext<Params, Query> {
  body: ActionBody;
}

/**
 * Runs on `POST` to the page's URL. Returns data for the page to show (`data(value, { status: 422 })`
 * for a failed validation), or throws an outcome (`redirect()` from an action is 303) or an error.
 */
export type Action<Params extends Record<string, string> = Record<string, string>> = (
  ctx: ActionContext<Params>,
) => unknown;

/**
 * Returns data for the page, or throws an outcome (`notFound()`, `redirect()`…) or an error.
 * Top-level values that are promises are streamed: the shell goes out first, and the page
 * reads them with `use()` inside a `<Suspense>`.
 */
export type Loader<Params extends Record<string, string> = Record<string, string>> = (
  ctx: LoaderContext<Params>,
) => unknown;

/**
 * What a middleware gets: what a loader gets (its own level's params, the request's cookies, `setHeader`), the
 * request itself, and the context it may fill.
 */
export interface MiddlewareArgs<
  Params extends Record<string, string> = Record<string, string>,
  Query extends object = Record<string, unknown>,
> extends LoaderContext<Params, Query> {
  request: Request;
}

/**
 * Runs the rest of the request (inner middleware, the action, the loaders, the render) and resolves with its
 * response once its status and headers are decided, before its body is sent: the headers may still change.
 * Called by Brisk after the middleware if it never calls it; at most once.
 */
export type NextFunction = () => Promise<Response>;

/**
 * A route's middleware. It may throw an outcome (`unauthorized()`: the nearest route fallback, or JSON for a
 * request that does not take HTML), fill the context, and call `next()` to see or change the response's headers.
 * Returning a `Response` answers with it instead.
 */
// A method's bivariance, so that middleware typed for its own params fits a route table's list, as a loader does.
export type Middleware<
  Params extends Record<string, string> = Record<string, string>,
  Query extends object = Record<string, unknown>,
> = {
  run(args: MiddlewareArgs<Params, Query>, next: NextFunction): unknown;
}["run"];

/** A route's own pages for an outcome or an error below it; the app's pages stand in for the ones it leaves out. */
export type RouteFallbacks = Partial<
  Pick<Fallbacks, "not-found" | "forbidden" | "unauthorized" | "bad-request" | "error">
>;

/**
 * How long the server may answer a route's GET from memory instead of rendering it again (docs/guide/11-caching.md).
 * Only answers that read no cookie, session or request header, set no cookie and answer 200 or 404 are kept.
 */
export interface RouteCache {
  /** Seconds a kept answer is served as it is. */
  maxAge: number;
  /** Seconds past `maxAge` the kept answer is still served while one render replaces it; 0 (the default): none. */
  staleWhileRevalidate?: number;
  /** Names `revalidateTag` (brisk/server) drops this route's kept answers by. */
  tags?: readonly string[];
}

export interface RouteDefinition {
  /**
   * A wouter pattern: `/users/:id`, `/files/*`. A top-level route's starts with `/`; a child's is relative
   * to its parent's (`items/:id` under `/shop`). An index route has none.
   */
  path?: string;
  /** A child that answers its parent's own path, rendered in the parent's `<Outlet />`. */
  index?: boolean;
  /**
   * The search parameters this route reads, as a TypeBox object schema (Elysia's `t.Object({ page: t.Integer({
   * minimum: 1, default: 1 }) })`), from a `*.server.ts` module like the loader. The server parses them before the
   * loaders and the action run (after the middleware): a field missing or invalid takes its `default`, an optional
   * one may stay absent, anything else answers 400 naming the field. Loaders, actions and middleware read the parse
   * as `query`, components through `useRouteSearch(route)`. Fields are what a URL and JSON carry: strings, numbers,
   * integers, booleans, unions of literals, arrays of those (a repeated key).
   */
  search?: TObject;
  /**
   * The name other levels read this route's data by (`useRouteLoaderData("account")`). Defaults to its full
   * pattern (`/shop/items/:id`), with `?index` after it for an index route.
   */
  id?: string;
  /**
   * The page, or the layout that renders its matched child where it puts `<Outlet />`. A code-split one is
   * `lazyPage("pages/X.tsx", () => import("./pages/X.tsx"))`: the first argument names the imported module
   * relative to the app's folder, so the server can preload its chunk. Without one, a route with children
   * renders just the child; a route without children answers with what its loader or action returns (an RSS
   * feed, a like button's endpoint): a `Response` as it is, any other value as JSON.
   */
  component?: ComponentType;
  /** Routes rendered inside this one's `<Outlet />`; the loaders of every matched level run side by side. */
  children?: readonly RouteDefinition[];
  /**
   * Shown inside the layouts above when this route, or a level below it, ends in that outcome or error: the
   * nearest route's wins, the app's page is the last resort. Inside a layout, the layout stays around it.
   */
  fallbacks?: RouteFallbacks;
  /**
   * Runs on the server only. Import it from a `*.server.ts` module: the browser build replaces those
   * with `undefined` stand-ins, so neither the loader nor what it imports ships to the browser.
   */
  // A method, so that a loader typed for its own params (`LoaderContext<{ id: string }>`) fits: the route
  // table is the one place that pairs a pattern with its loader, and the matcher fills what the pattern names.
  loader?(ctx: LoaderContext): unknown;
  /**
   * Runs on `POST` to the route's URL, from a `*.server.ts` module like the loader; the loaders run after it.
   * A post to a parent's own path runs its index child's action, or else the parent's.
   */
  action?(ctx: ActionContext): unknown;
  /**
   * Runs, outermost level first, on every request that reaches this route or a route below it, before any
   * loader or action: documents, page data (whatever levels the client keeps), form and fetcher posts, fetcher
   * loads, routes without a page. The place for a guard: a loader is data, and a level the client keeps, an
   * action below it or a route without a page never runs it. From a `*.server.ts` module, like the loader.
   */
  middleware?: readonly Middleware[];
  /**
   * Whether this route's loader runs again on a client navigation, after an action or a revalidation, where
   * the level is already showing (a new route or a level that shows no data always loads). Return
   * `defaultShouldRevalidate` for Brisk's choice. It runs in the browser: define it in a module the browser
   * loads, not a `*.server.ts` one. A level kept this way shows the data it had.
   */
  shouldRevalidate?(args: ShouldRevalidateArgs): boolean;
  /** Stylesheets of this route only, relative to `src/app`, linked before it renders. */
  styles?: readonly string[];
  /**
   * Rendered once when a production server starts, then served from memory with a fresh nonce per response.
   * Only for a path without parameters whose loaders read no headers, cookies or search (that fails the start).
   */
  prerender?: boolean;
  /** With `prerender`: the prerendered page is rendered again in the background once it is this many seconds old. */
  revalidate?: number;
  /**
   * Keeps this route's rendered answers (documents and page data) in memory for the paths and searches asked for.
   * On a layout it covers every route below it; where several matched levels say, the shortest ages and all their
   * tags hold.
   */
  cache?: RouteCache;
  /**
   * Partial prerendering: the page is prerendered once as a static shell, and only its holes (the `<Suspense>`
   * boundaries whose components read loader data) render per request, after the loaders have decided the status.
   */
  shell?: boolean;
}
