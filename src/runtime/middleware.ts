// middleware.ts: route middleware and the typed request context it fills, on React Router 7.9's model.
// A route's `middleware` runs, outermost level first, on every request that reaches the route or a route below
// it, before any loader or action: the guard of a whole branch, and the one place to read the signed-in user.
import type { LoaderContext } from "./route.ts";

/** A typed slot of the request context: `createContext<User>()`, then `context.set(userContext, user)`. */
export interface RouterContext<T> {
  readonly defaultValue: T | undefined;
  /** Whether `createContext` was given a default: a slot without one that nothing set is a bug when read. */
  readonly hasDefault: boolean;
}

/** A slot of the request context, typed by what it holds; `defaultValue` is what `get` gives before any `set`. */
export function createContext<T>(...defaultValue: [] | [T]): RouterContext<T> {
  return Object.freeze({ defaultValue: defaultValue[0], hasDefault: defaultValue.length > 0 });
}

/**
 * One request's context: what middleware put there for the middleware inside it and for the loaders and the
 * action of the matched levels. Made per request, never shared between visitors.
 */
export class RouterContextProvider {
  readonly #values = new Map<RouterContext<unknown>, unknown>();

  get<T>(key: RouterContext<T>): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    // Reading a slot nothing filled is the app's bug (a loader outside the middleware that sets it): said at
    // once, rather than an `undefined` that fails further away.
    if (!key.hasDefault) throw new Error("context.get: no value set for this context and it has no default (is the middleware that sets it on a route above?)");
    return key.defaultValue as T;
  }

  set<T>(key: RouterContext<T>, value: T): void {
    this.#values.set(key as RouterContext<unknown>, value);
  }
}

/**
 * What a middleware gets: what a loader gets (its own level's params, the request's cookies, `setHeader`), the
 * request itself, and the context it may fill.
 */
export interface MiddlewareArgs<Params extends Record<string, string> = Record<string, string>> extends LoaderContext<Params> {
  request: Request;
}

/**
 * Runs the rest of the request (inner middleware, the action, the loaders, the render) and resolves with its
 * answer once its status and headers are decided, before its body is sent: the headers may still change.
 * Called by Brisk after the middleware if it never calls it; at most once.
 */
export type NextFunction = () => Promise<Response>;

/**
 * A route's middleware. It may throw an outcome (`unauthorized()`: the nearest route fallback, or JSON for a
 * request that does not take HTML), fill the context, and call `next()` to see or change the answer's headers.
 * Returning a `Response` answers with it instead.
 */
// A method's bivariance, so that middleware typed for its own params fits a route table's list, as a loader does.
export type Middleware<Params extends Record<string, string> = Record<string, string>> = {
  run(args: MiddlewareArgs<Params>, next: NextFunction): unknown;
}["run"];
