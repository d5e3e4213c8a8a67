// api-answers.ts: the type of an Eden treaty client for an app's API as Brisk serves it: each route's own answers
// as JSON reads them, plus the JSON failures Brisk answers for it (a refused write, a 422 naming the fields, a
// 500 with its digest). Types only, shared by `apiClient` (brisk) and `apiClientFor` (brisk/test).
import type { Treaty } from "@elysiajs/eden/treaty2";
import type { AnyElysia, Elysia } from "elysia";

/** The body of every failure Brisk answers under /api/ (see jsonError). */
export interface ApiFailure {
  /** What went wrong, in a few words: `"not found"`, `"invalid request"`. */
  readonly error: string;
}

/**
 * What Brisk answers for any API route, by status: the outcomes a handler or middleware throws (401, 403,
 * 404), a body it refuses (400, 408, 413, 415, 429), a failed schema (422), a failure (500). A middleware's
 * own Response is the app's: its status and body are not typed here.
 */
export interface ApiFailures {
  400: ApiFailure;
  401: ApiFailure;
  /** `reason` when the write was refused as cross-site (which header gave it away). */
  403: ApiFailure & { readonly reason?: string };
  404: ApiFailure;
  408: ApiFailure;
  413: ApiFailure;
  415: ApiFailure;
  /** Each failing field's first problem, by its name (`name`, `address.city`). */
  422: ApiFailure & { readonly fields: Readonly<Record<string, string>> };
  429: ApiFailure;
  /** The digest names the failure in the log and in Sentry; the request id names the request. */
  500: ApiFailure & { readonly digest: string; readonly requestId: string };
}

/** Elysia's own 422 body, which Brisk never sends: its schema failures answer ApiFailures[422]. */
interface ElysiaValidation {
  type: "validation";
}

/** What is left for the body to carry, whole: a stream, a file or a Response is read as Eden reads it. */
type Whole = Response | Blob | ReadableStream | Generator | AsyncGenerator;

/**
 * A value as it arrives as JSON: what has a `toJSON` (a Date, a URL) as what that gives (a string). The client
 * reads JSON as it is, so the type says what the code gets.
 */
type AsJson<T> = T extends Whole
  ? T
  : T extends { toJSON(): infer J }
    ? AsJson<J>
    : T extends readonly unknown[]
      ? { [I in keyof T]: AsJson<T[I]> }
      : T extends object
        ? { [K in keyof T]: AsJson<T[K]> }
        : T;

/** A route's answers by status, as JSON, with Brisk's failures beside (or in place of Elysia's 422 among) its own. */
type WithFailures<Res> = {
  [S in keyof Res | keyof ApiFailures]: S extends keyof ApiFailures
    ? ApiFailures[S] | AsJson<Exclude<S extends keyof Res ? Res[S] : never, ElysiaValidation>>
    : S extends keyof Res
      ? AsJson<Res[S]>
      : never;
};

/** Elysia's route tree (path segments, then methods) with every method's answers given Brisk's failures. */
type ServedRoutes<Routes> = {
  [K in keyof Routes]: Routes[K] extends {
    body: unknown;
    params: unknown;
    query: unknown;
    headers: unknown;
    response: infer Res;
  }
    ? { [P in keyof Routes[K]]: P extends "response" ? WithFailures<Res> : Routes[K][P] }
    : ServedRoutes<Routes[K]>;
};

type Served<App extends AnyElysia> =
  App extends Elysia<
    infer Prefix,
    infer Singleton,
    infer Definitions,
    infer Metadata,
    infer Routes,
    infer Ephemeral,
    infer Volatile
  >
    ? Elysia<Prefix, Singleton, Definitions, Metadata, ServedRoutes<Routes>, Ephemeral, Volatile>
    : never;

/** Eden treaty's client for the app's API (`typeof api`) as Brisk serves it. */
export type ApiClient<App extends AnyElysia> = Treaty.Create<Served<App>>;
