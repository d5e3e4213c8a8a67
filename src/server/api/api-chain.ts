// api-chain.ts: runs an API route's middleware (from every `apiMiddleware` above it, outermost first, each
// once) as one chain around its handler, from the API's own hooks. The chain starts before Elysia reads the body
// and checks the schema, so a guard refuses a visitor before any of it is read and before a 422 could name the
// route's fields.
//
// Elysia runs a handler between hooks, not inside a function a middleware could wrap: the chain runs in the parse
// hook (the transform hook for a request Elysia parses nothing for) until its innermost `next()`, the handler
// runs, and its response is handed to that `next()` in the map-response hook, which then waits for the chain.
import type { AnyElysia, Context } from "elysia";
import { mapResponse } from "elysia/adapter/bun/handler";
import { RouterContextProvider } from "../../runtime/router-context.ts";
import type { Middleware, MiddlewareArgs } from "../../runtime/route.ts";
import { contextOf, cookiesCheckpoint } from "../request/context.ts";
import { appHeaderName } from "../request/headers.ts";
import { runChain } from "../request/chain.ts";
import { requestCookies } from "./request-cookies.ts";

/** A middleware's own Response, answered without the handler: thrown past Elysia's schema checks to the error hook. */
export class MiddlewareAnswer extends Error {
  readonly status: number;
  constructor(readonly response: Response) {
    super("an API middleware answered without the handler");
    this.name = "MiddlewareAnswer";
    // The status Elysia gives the error response: a 200 the middleware chose stays a 200.
    this.status = response.status;
  }
}

/** Each `apiMiddleware(…)`'s hook that marks the routes it covers, and the middleware it brings. */
const middlewareOfMarker = new WeakMap<object, readonly Middleware[]>();

export function markApiMiddleware(marker: object, middleware: readonly Middleware[]): void {
  middlewareOfMarker.set(marker, middleware);
}

interface Covering {
  markers: ReadonlySet<object>;
  middleware: readonly Middleware[];
}

/**
 * The middleware covering a route, outermost first, from the hooks Elysia merged for it: the same `apiMiddleware`
 * reached twice (a module that uses it too) runs once, as Elysia applies a named plugin once.
 */
function coveringOf(hooks: unknown): Covering | undefined {
  // Elysia keeps a route's hooks as its lifecycle store (`{ fn }` per hook), not as the options it was given.
  const transforms = (hooks as { transform?: ReadonlyArray<{ fn?: unknown }> }).transform ?? [];
  const markers = new Set(
    transforms
      .map((hook) => hook.fn)
      .filter((fn): fn is object => typeof fn === "function" && middlewareOfMarker.has(fn)),
  );
  if (markers.size === 0) return undefined;
  return { markers, middleware: [...markers].flatMap((marker) => middlewareOfMarker.get(marker) ?? []) };
}

type CoveringFor = (method: string, route: string) => Covering | undefined;

/**
 * The covering of each route by method and pattern, as Elysia matches them: HEAD by the GET route, then any `all`.
 * Undefined when no route is covered.
 */
function coveringTable(routes: AnyElysia["routes"]): CoveringFor | undefined {
  const table = new Map<string, Covering>();
  for (const { method, path, hooks } of routes) {
    const covering = coveringOf(hooks);
    if (covering) table.set(`${method} ${path}`, covering);
  }
  if (table.size === 0) return undefined;
  return (method, route) =>
    table.get(`${method} ${route}`) ??
    (method === "HEAD" ? table.get(`GET ${route}`) : undefined) ??
    table.get(`ALL ${route}`);
}

/** The innermost `next()`: whether it waits for the handler's response, and that response once it comes. */
interface HandlerSlot {
  waiting: boolean;
  response: PromiseWithResolvers<Response>;
}

/** How the middleware ended a request without its handler: a Response of their own, or what they threw. */
type EarlyEnd = { response: Response } | { error: unknown };

interface RunningChain {
  covering: Covering;
  /** The values the middleware set: the handler's `context`. */
  values: RouterContextProvider;
  /** The whole chain: the response the middleware answer with. */
  chain: Promise<Response>;
  /** Settles once the handler may run (undefined), or with how the middleware ended the request without it. */
  early: Promise<EarlyEnd | undefined>;
  handler: HandlerSlot;
}

/** The chain under way for a request, kept on its context (the one side table keyed by the request). */
const runningOf = (request: Request) => contextOf(request).apiChain as RunningChain | undefined;

type HookContext = Pick<Context, "request" | "route" | "params" | "set">;

function argsOf({ request, params, set }: HookContext, values: RouterContextProvider): MiddlewareArgs {
  const url = new URL(request.url);
  return {
    request,
    params: params as Record<string, string>,
    url,
    search: url.searchParams,
    // An API route checks its query with Elysia's own schema, in its handler: no page search schema here.
    query: {},
    headers: request.headers,
    cookies: requestCookies(request),
    setHeader(name: string, value: string) {
      set.headers[appHeaderName(name)] = value;
    },
    signal: request.signal,
    context: values,
  };
}

/**
 * The response's headers and cookies as they are at a `next()`: what puts them back when the middleware throws
 * after it, so its outcome goes out without what the handler set (a session a sign-in started).
 */
function checkpoint({ request, set }: HookContext): () => void {
  const headers = { ...set.headers };
  const restoreCookies = cookiesCheckpoint(contextOf(request));
  return () => {
    for (const name of Object.keys(set.headers)) delete set.headers[name];
    Object.assign(set.headers, headers);
    restoreCookies();
  };
}

/** The values the route's middleware set: the handler's `context`; refused if they never ran. */
export function middlewareContext(request: Request, marker: object): RouterContextProvider {
  const running = runningOf(request);
  // Failing closed: a handler an apiMiddleware covers never runs without its middleware.
  if (!running?.covering.markers.has(marker)) {
    throw new Error(
      "apiMiddleware: its middleware did not run for this route; it works on the routes of the app's `api` (defineApp)",
    );
  }
  return running.values;
}

/** The API plugin's hooks that run each route's middleware; none for an API no `apiMiddleware` covers. */
export function apiChainHooks(api: AnyElysia | undefined) {
  const coveringFor = coveringTable(api?.routes ?? []);
  return coveringFor && chainHooks(coveringFor);
}

/** The hooks, over the covering of the API's routes. */
function chainHooks(coveringFor: CoveringFor) {
  /** Runs the route's middleware up to its handler, once per request. */
  function enter(hook: HookContext): RunningChain["early"] | undefined {
    const known = runningOf(hook.request);
    if (known) return known.early;
    const covering = coveringFor(hook.request.method, hook.route);
    if (!covering) return undefined;
    const values = new RouterContextProvider();
    const args = argsOf(hook, values);
    const handler: HandlerSlot = { waiting: false, response: Promise.withResolvers() };
    const reached = Promise.withResolvers<undefined>();
    const chain = runChain(
      covering.middleware.map((run) => ({ run, depth: 0, args: () => args })),
      (failure) => {
        // Thrown on to the outer middleware, then to the server's error hook: an outcome is its JSON response.
        if (failure) return Promise.reject(failure.error);
        handler.waiting = true;
        reached.resolve(undefined);
        return handler.response.promise;
      },
      () => checkpoint(hook),
    );
    const early = Promise.race([
      reached.promise,
      chain.then(
        (response) => ({ response }),
        (error: unknown) => ({ error }),
      ),
    ]);
    contextOf(hook.request).apiChain = { covering, values, chain, early, handler } satisfies RunningChain;
    return early;
  }

  return {
    /** Parse hook, before the API's body reader: a request the middleware end has its body left unread. */
    async runApiMiddleware({ request, route, params, set }: HookContext) {
      // A value ends Elysia's parsing: the body reader after this hook is not called.
      return (await enter({ request, route, params, set })) ? null : undefined;
    },
    /** Transform hook, before Elysia checks the schema: starts a chain parsing did not, and ends the request early. */
    async answerApiMiddleware({ request, route, params, set }: HookContext) {
      const early = await enter({ request, route, params, set });
      if (early) throw "response" in early ? new MiddlewareAnswer(early.response) : early.error;
    },
    /** Map-response hook: the handler's response (or the error response it failed with) goes to the innermost `next()`. */
    async handResponseToMiddleware({
      request,
      responseValue,
      set,
    }: Pick<Context, "request" | "set"> & { responseValue: unknown }) {
      const running = runningOf(request);
      if (!running?.handler.waiting) return;
      running.handler.waiting = false;
      running.handler.response.resolve(
        responseValue instanceof Response ? responseValue : mapResponse(responseValue, set, request),
      );
      return running.chain;
    },
    /** After-response hook: a response that never reached the chain (another hook answered) ends it with a failure. */
    endApiMiddleware({ request }: Pick<Context, "request">) {
      const running = runningOf(request);
      if (!running?.handler.waiting) return;
      running.handler.waiting = false;
      // Whatever the middleware does after `next()` (a finally) still runs; its failure has no one to answer.
      running.chain.catch(() => {});
      running.handler.response.reject(new Error("the API route failed; its error response was sent"));
    },
  };
}
