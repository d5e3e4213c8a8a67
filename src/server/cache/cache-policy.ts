// cache-policy.ts: how long a matched page's answers may be kept and under which tags, from the `cache` option of
// its matched levels: a layout's covers every route below it, and where several say, the shortest ages and all
// their tags hold. Checked once at start, so a mistyped option fails the server rather than caching wrongly.
import type { RouteCache, RouteDefinition } from "../../runtime/route.ts";
import { isResourceRoute, routeTree, type RouteMatch, type RouteNode } from "../../runtime/route-tree.ts";

/** A matched page's policy, in ms. */
export interface CachePolicy {
  readonly maxAge: number;
  readonly staleWhileRevalidate: number;
  readonly tags: readonly string[];
}

/** Longer than a year reads as a mistake in seconds; a route that never changes is `prerender`. */
const MAX_SECONDS = 365 * 24 * 3600;

export class CacheOptionError extends Error {
  override name = "CacheOptionError";
}

function checkSeconds(what: string, value: unknown, min: number): void {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > MAX_SECONDS)
    throw new CacheOptionError(
      `${what} must be a number of seconds from ${min} to ${MAX_SECONDS}, got ${String(value)}`,
    );
}

/**
 * Throws naming the first route whose `cache` cannot hold: a bad age or tag, a route without a page, one prerendered
 * or a shell.
 */
export function checkCacheOptions(routes: readonly RouteDefinition[]): void {
  for (const { pattern, route } of routeTree(routes).nodes) {
    const cache = route.cache;
    if (!cache) continue;
    const what = `route ${pattern || "/"}: cache`;
    checkSeconds(`${what}.maxAge`, cache.maxAge, 1);
    checkSeconds(`${what}.staleWhileRevalidate`, cache.staleWhileRevalidate ?? 0, 0);
    for (const tag of cache.tags ?? [])
      if (typeof tag !== "string" || tag === "" || tag.length > 256)
        throw new CacheOptionError(
          `${what}.tags: a tag is a string of 1 to 256 characters, got ${JSON.stringify(tag)}`,
        );
    if (isResourceRoute(route))
      throw new CacheOptionError(
        `${what}: a route without a page answers with what its loader returns; set its headers`,
      );
    if (route.prerender) throw new CacheOptionError(`${what}: the route is prerendered already; use revalidate`);
    if (route.shell)
      throw new CacheOptionError(
        `${what}: a shell's holes are rendered per request; cache the page whole without shell`,
      );
  }
}

function combined(caches: readonly RouteCache[]): CachePolicy | undefined {
  if (caches.length === 0) return undefined;
  return {
    maxAge: Math.min(...caches.map((c) => c.maxAge)) * 1000,
    staleWhileRevalidate: Math.min(...caches.map((c) => c.staleWhileRevalidate ?? 0)) * 1000,
    tags: [...new Set(caches.flatMap((c) => c.tags ?? []))],
  };
}

/**
 * Per innermost level of the tree (a route object may stand in several places, under a cached layout and under
 * another), and apart for a not-found page inside layouts: a match's levels follow from those.
 */
const policies = new WeakMap<RouteNode, CachePolicy | null>();
const missingPolicies = new WeakMap<RouteNode, CachePolicy | null>();

/** The policy of a matched page, or undefined when none of its levels is cached (or it has no page, or is a shell). */
export function cachePolicyOf(match: RouteMatch | null): CachePolicy | undefined {
  if (!match) return undefined;
  const kept = match.missing ? missingPolicies : policies;
  const leaf = match.levels.at(-1)!.node;
  let policy = kept.get(leaf);
  if (policy === undefined) {
    // A shell under a cached layout stays a shell: its holes are the visitor's.
    const own = !match.missing && (isResourceRoute(match.route) || match.route.shell);
    policy = (!own && combined(match.levels.flatMap(({ node }) => node.route.cache ?? []))) || null;
    kept.set(leaf, policy);
  }
  return policy ?? undefined;
}
