// response-headers.ts: adds headers to whatever a handler answered, from a global Elysia hook.
import type { Context } from "elysia";

/**
 * On a Response the headers go onto the Response itself: headers left in Elysia's `set` make it copy
 * the Response, and a copied streamed page loses Bun's direct stream and pays for every chunk again.
 * A header the handler already chose is kept.
 */
export function addHeaders(
  { responseValue, set }: { responseValue: unknown; set: Pick<Context["set"], "headers"> },
  headers: Iterable<readonly [string, string]>,
): void {
  const target = responseValue instanceof Response ? responseValue.headers : undefined;
  for (const [name, value] of headers) {
    if (!target) set.headers[name] ??= value;
    else if (!target.has(name)) target.set(name, value);
  }
}
