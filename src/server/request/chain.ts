// chain.ts: runs middleware, outermost first, around the rest of a request (a page's action, loaders and render;
// an API route's handler). What a middleware throws ends the request at its level, as a loader's outcome or error
// would: `respond(failure)` makes that response. The pages (pages/middleware.ts) and the API (api/api-chain.ts)
// each make the steps.
import type { Middleware, MiddlewareArgs } from "../../runtime/route.ts";

/** A middleware that threw: what, and at which level, so the page ends there (its fallback, inside the levels above). */
export interface MiddlewareFailure {
  error: unknown;
  depth: number;
}

export interface MiddlewareStep {
  run: Middleware;
  /** The level of the route it belongs to: where a failure it throws shows. */
  depth: number;
  args(): MiddlewareArgs;
}

/**
 * The response made inside is dropped: its stream (a render already under way) is cancelled, not leaked. One the
 * middleware is reading, or has read, is its own to finish: cancelling a locked stream throws.
 */
async function discard(inner: Promise<Response> | undefined, kept?: Response): Promise<void> {
  const response = await inner?.catch(() => undefined);
  if (response && response !== kept && response.body && !response.body.locked) await response.body.cancel();
}

/**
 * `respond(failure)` makes the response: the request's own when every middleware let it through, or the one for a
 * failure. A middleware that throws after `next()` has resolved throws away the response it was given (its body
 * never read) for the failure's, and with `checkpoint` what went into it: what the checkpoint taken at `next()`
 * returns puts back the headers and cookies as they were then.
 */
export function runChain(
  steps: readonly MiddlewareStep[],
  respond: (failure?: MiddlewareFailure) => Promise<Response>,
  checkpoint?: () => () => void,
): Promise<Response> {
  const at = async (index: number): Promise<Response> => {
    const step = steps[index];
    if (!step) return respond();
    let inner: Promise<Response> | undefined;
    let restore: (() => void) | undefined;
    const next = () => {
      if (inner) throw new Error("middleware: next() was called twice");
      restore = checkpoint?.();
      return (inner = at(index + 1));
    };
    let returned: unknown;
    try {
      returned = await step.run(step.args(), next);
    } catch (error) {
      await discard(inner);
      restore?.();
      return respond({ error, depth: step.depth });
    }
    if (returned instanceof Response) {
      await discard(inner, returned);
      return returned;
    }
    // A middleware that only guards or fills the context need not call next(): the request goes on.
    return inner ?? at(index + 1);
  };
  return at(0);
}
