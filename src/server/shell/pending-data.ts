// pending-data.ts: loader data as a shell's prerender sees it: not there yet, so the component that reads it
// suspends, and its <Suspense> becomes one of the shell's holes.

/** Thrown by every read of pending data: a promise that never settles, which React waits on until it aborts. */
export function neverSettling(): Promise<never> {
  return new Promise<never>(() => {});
}

/**
 * A level's loader data that is not there: reading a key of it, asking what keys it has or what it is suspends
 * the component for good. Holding it, passing it on or testing it for truth reads nothing, as with real data.
 */
export function pendingData(never: Promise<never>): object {
  const suspend = (): never => {
    throw never;
  };
  return new Proxy(Object.create(null) as object, {
    get: suspend,
    has: suspend,
    ownKeys: suspend,
    getOwnPropertyDescriptor: suspend,
    getPrototypeOf: suspend,
  });
}
