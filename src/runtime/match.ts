// match.ts: finds the route for a pathname, with the same patterns wouter uses on the client.
import { parse } from "regexparam";
import type { RouteDefinition } from "./route.ts";

export interface RouteMatch {
  route: RouteDefinition;
  params: Record<string, string>;
}

interface Compiled {
  pattern: RegExp;
  keys: string[];
}

const compiledPatterns = new Map<string, Compiled>();

/**
 * wouter's parser, compiled once per pattern instead of on every render of a Route. Patterns come from
 * the code (the route table, a Route's path), never from a request, so the cache stays small.
 */
export function parsePattern(route: string, loose?: boolean): Compiled {
  const key = `${loose ? 1 : 0}${route}`;
  let compiled = compiledPatterns.get(key);
  if (!compiled) compiledPatterns.set(key, (compiled = parse(route, loose)));
  return compiled;
}

/** Compiles the table once; the returned function only runs regular expressions. */
export function createMatcher(routes: readonly RouteDefinition[]): (pathname: string) => RouteMatch | null {
  const compiled = routes.map((route) => ({ route, ...parsePattern(route.path) }));
  return (pathname) => {
    for (const { route, pattern, keys } of compiled) {
      const found = pattern.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      // The caller has checked the path with decodeURI, so no param is malformed.
      keys.forEach((key, i) => {
        const raw = found[i + 1];
        if (raw !== undefined) params[key] = decodeURIComponent(raw);
      });
      return { route, params };
    }
    return null;
  };
}
