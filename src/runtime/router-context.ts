// router-context.ts: the typed request context that route middleware fills and loaders and actions read, on
// React Router 7.9's model: `createRouterContext<User>()` makes a slot, `context.set` and `context.get` use it.
// React Router calls it `createContext`; here it is named apart so that it does not shadow React's in a file that
// imports both.

/** A typed slot of the request context: `createRouterContext<User>()`, then `context.set(userContext, user)`. */
export interface RouterContext<T> {
  readonly defaultValue: T | undefined;
  /** Whether `createRouterContext` was given a default: a slot without one that nothing set is a bug when read. */
  readonly hasDefault: boolean;
}

/** A slot of the request context, typed by what it holds; `defaultValue` is what `get` gives before any `set`. */
export function createRouterContext<T>(...defaultValue: [] | [T]): RouterContext<T> {
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
    if (!key.hasDefault)
      throw new Error(
        "context.get: no value set for this context and it has no default (is the middleware that sets it on a route above?)",
      );
    return key.defaultValue as T;
  }

  set<T>(key: RouterContext<T>, value: T): void {
    this.#values.set(key as RouterContext<unknown>, value);
  }
}
