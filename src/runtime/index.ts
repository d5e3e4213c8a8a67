// index.ts: `brisk`, everything an app's pages, loaders, actions and document use. The app reaches Brisk
// through this list (and `brisk/server`, `brisk/test`), never by a path into the framework's folders, so
// what is here is the contract and everything else may move. Each name has one home: what only the server
// side uses (sessions, the app's lifecycle, API routes' helpers) is in `brisk/server` alone.
//
// Bun's bundler puts every module this list re-exports, once any chunk uses it, in the entry chunk with the list.
// A name only code-split pages use (the API client with Eden, useRouteSearch) lives in a folder whose package.json
// says `"sideEffects": false`, which keeps it in those pages' chunks. Not the whole package: React Fast Refresh
// in `bun run dev` keeps a component's state by what its modules do when imported.

// The app as Brisk takes it.
export { defineApp, type AppDefinition } from "./app-definition.ts";
export type { BadRequestPageProps, ErrorPageProps, Fallbacks } from "./fallback-pages.ts";

// The route table and what loaders and actions are given.
export type {
  Action,
  ActionBody,
  ActionContext,
  Loader,
  LoaderContext,
  Middleware,
  MiddlewareArgs,
  NextFunction,
  NoQuery,
  RouteCache,
  RouteDefinition,
  RouteFallbacks,
} from "./route.ts";
export type { ShouldRevalidate, ShouldRevalidateArgs } from "./should-revalidate.ts";
export type { CookieOptions, Cookies } from "./cookies.ts";
export { lazyPage, type LazyPage } from "./lazy-page.ts";
export {
  route,
  type ChildRoute,
  type RouteData,
  type RouteOptions,
  type RouteQuery,
  type TypedRoute,
} from "./typed-route.ts";
export type { PathParams } from "./path-params.ts";
export { href, type CheckedHref, type Href, type Register, type RoutePattern, type SafePath } from "./route-paths.ts";
export { createRouterContext, type RouterContext, type RouterContextProvider } from "./router-context.ts";

// How a loader or an action ends other than with data.
export {
  forbidden,
  isOutcome,
  notFound,
  redirect,
  unauthorized,
  type OutcomeKind,
  type RedirectOptions,
  type RedirectStatus,
} from "./outcome.ts";
export { returnTo } from "./redirect-target.ts";
export { data, type ActionData } from "./action-data.ts";

// What components read and do.
export { useActionData, useLoaderData, useRouteData, useRouteLoaderData } from "./loader-data.tsx";
export { useRouteSearch, type QueryChange, type SearchHref, type SetQuery } from "./route-search/route-search.ts";
export { Outlet } from "./Outlet.tsx";
export { Form, useFormPending, type FormProps } from "./Form.tsx";
export {
  useFetcher,
  useFetchers,
  type Fetcher,
  type FetcherFormProps,
  type FetcherInFlight,
  type FetcherOptions,
  type FetcherState,
} from "./fetcher.tsx";
export {
  usePending,
  useRevalidate,
  useSearchParams,
  type NavigateOptions,
  type Pending,
  type SearchParamsInit,
  type SetSearchParams,
} from "./navigation.ts";
export { Link, type LinkProps, type PrefetchMode } from "./Link.tsx";
export { apiClient } from "./api-client/api-client.ts";
export type { ApiClient, ApiFailure, ApiFailures } from "./api-answers.ts";
// Brisk's navigation drives wouter's router, so its hooks are the app's (`useLocation`'s navigate typed by the table).
export { useParams, useRoute, useSearch } from "wouter";
export { useLocation, type Navigate } from "./typed-location.ts";
export { useUrl, type PageUrl } from "./page-url.ts";
export { Await, useAsyncError, type AsyncError, type AwaitProps } from "./Await.tsx";

// The app's <html> shell.
export { Links, PageContent } from "./document.tsx";
