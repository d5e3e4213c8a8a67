// revalidate.ts: `revalidateTag` and `revalidatePath` (brisk/server), for actions, API routes and any server code.
// They drop the kept answers at once from every render cache of this process, then tell the other instances
// through each cache's invalidation bus (PostgreSQL's NOTIFY when DATABASE_URL names one, pg-invalidations.ts).
import type { Logger } from "../monitoring/logger.ts";
import type { Invalidation } from "./invalidation.ts";
import type { RenderCache } from "./render-cache.ts";

interface Registered {
  readonly cache: WeakRef<RenderCache>;
  readonly log: Logger;
}

/** Weakly: a test makes many servers in one process, and a server no one holds should not be kept for this. */
const caches = new Set<Registered>();

/** Makes a server's cache one that revalidateTag and revalidatePath reach. */
export function registerCache(cache: RenderCache, log: Logger): void {
  caches.add({ cache: new WeakRef(cache), log });
}

async function invalidate(invalidation: Invalidation): Promise<void> {
  const published: Promise<void>[] = [];
  for (const registered of caches) {
    const cache = registered.cache.deref();
    if (!cache) {
      caches.delete(registered);
      continue;
    }
    cache.apply(invalidation);
    // The write that asked for it has happened: a bus that cannot tell the others is logged, not the write's failure.
    // Their caches drop everything once their own connection is back (pg-invalidations.ts).
    const sent = cache.bus?.publish(invalidation).catch((error: unknown) =>
      registered.log({
        level: "error",
        msg: "could not tell the other instances to drop cached answers",
        error: error instanceof Error ? error.message : String(error),
        invalidation,
      }),
    );
    if (sent) published.push(sent);
  }
  await Promise.all(published);
}

function names(what: string, values: readonly unknown[]): string[] {
  for (const value of values)
    if (typeof value !== "string" || value === "") throw new TypeError(`${what}: expected a non-empty string`);
  return values as string[];
}

/**
 * Drops every kept answer of a route cached under `tag` (or any of `tags`), here and on every other instance:
 * the next request for it renders afresh. Call it after the write it follows has committed. Resolves once the
 * other instances have been told (or that failed, which is logged).
 */
export async function revalidateTag(tag: string | readonly string[]): Promise<void> {
  await invalidate({ tags: names("revalidateTag", typeof tag === "string" ? [tag] : [...tag]) });
}

/**
 * Drops every kept answer of the page at `path` (a pathname, `/shop/items/3`), whatever its search. Rejects with a
 * TypeError for anything else (a URL, a search or fragment, no leading slash).
 */
export async function revalidatePath(path: string): Promise<void> {
  const [checked] = names("revalidatePath", [path]);
  if (!/^\/[^?#]*$/.test(checked!))
    throw new TypeError(`revalidatePath: expected a path starting with "/" and without ? or #, got "${path}"`);
  // As the cache keys it: the path a request's URL has, its dot segments resolved and its characters encoded. Put
  // after an origin, so that `//x` stays a path rather than naming a host.
  await invalidate({ paths: [new URL(`http://x${checked}`).pathname] });
}
