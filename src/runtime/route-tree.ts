// route-tree.ts: the app's nested route table, compiled once: each route's id and full pattern, and the
// branches (a route with the layouts above it) a path is matched against, with wouter's own patterns.
import { parse } from "regexparam";
import type { RouteDefinition } from "./route.ts";

interface Compiled {
  pattern: RegExp;
  keys: string[];
}

const compiledPatterns = new Map<string, Compiled>();

/**
 * regexparam copies a path's literal segments into its expression as they are: the `.` of `/feed.xml` would
 * match any character. Params (`:id`, `:file.mp4`) and wildcards keep their own syntax.
 */
function escapeLiterals(route: string): string {
  return route
    .split("/")
    .map((segment) => (/^[:*]/.test(segment) ? segment : segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
}

/**
 * wouter's parser, compiled once per pattern instead of on every render of a Route. Patterns come from
 * the code (the route table, a Route's path), never from a request, so the cache stays small.
 */
export function parsePattern(route: string, loose?: boolean): Compiled {
  const key = `${loose ? 1 : 0}${route}`;
  let compiled = compiledPatterns.get(key);
  if (!compiled) compiledPatterns.set(key, (compiled = parse(escapeLiterals(route), loose)));
  return compiled;
}

/** One route of the table, where it sits. */
export interface RouteNode {
  route: RouteDefinition;
  id: string;
  /** Its full pattern: the parents' paths joined with its own (an index route has its parent's). */
  pattern: string;
  /** The params its pattern names, the ones its loader gets. */
  keys: readonly string[];
}

/** A matched level: a route on the path's branch, with the params of its own pattern. */
export interface MatchedLevel {
  node: RouteNode;
  params: Record<string, string>;
}

export interface RouteMatch {
  /** The innermost route: the page, or a route without a page. */
  route: RouteDefinition;
  /** The branch's full pattern: the route's name in logs and traces (`<layout>/*` when `missing`). */
  pattern: string;
  /** Every param of the path. */
  params: Record<string, string>;
  /** Outermost first; the last is `route`. */
  levels: MatchedLevel[];
  /**
   * No route matches the path, but these layouts match its beginning: the page is the not-found page inside
   * them (404), and `route` is the innermost of them.
   */
  missing?: true;
}

export interface RouteTree {
  /** Every route, parents before their children. */
  nodes: readonly RouteNode[];
  byId: ReadonlyMap<string, RouteNode>;
  /** Each route object where it first stands in the table: `useRouteData(route)` finds its id by it. */
  byRoute: ReadonlyMap<RouteDefinition, RouteNode>;
  match(pathname: string): RouteMatch | null;
}

/** Every route of the table, children included: what the builds collect stylesheets and code-split pages from. */
export function allRoutes(routes: readonly RouteDefinition[]): RouteDefinition[] {
  return routeTree(routes).nodes.map(({ route }) => route);
}

/** A route with no page and no children answers with what its loader or action returns. */
export function isResourceRoute(route: RouteDefinition): boolean {
  return route.component === undefined && route.children === undefined;
}

function joinPattern(parent: string | undefined, route: RouteDefinition): string {
  if (route.index) {
    if (route.path !== undefined || route.children)
      throw new Error(`an index route under ${parent ?? "/"} has a path or children`);
    if (parent === undefined) throw new Error("an index route must be a child of another route");
    return parent;
  }
  const path = route.path;
  if (path === undefined)
    throw new Error(`a route under ${parent ?? "the table"} has neither a path nor \`index: true\``);
  if (parent === undefined) {
    if (!path.startsWith("/")) throw new Error(`top-level route ${path} must start with /`);
    return path;
  }
  if (path.startsWith("/")) {
    if (path !== parent && !path.startsWith(parent === "/" ? "/" : `${parent}/`))
      throw new Error(`route ${path} is not under its parent ${parent}`);
    return path;
  }
  return `${parent === "/" ? "" : parent}/${path}`;
}

const trees = new WeakMap<readonly RouteDefinition[], RouteTree>();

/** Compiles the table once per app; matching only runs regular expressions. Throws on a malformed table. */
export function routeTree(routes: readonly RouteDefinition[]): RouteTree {
  let tree = trees.get(routes);
  if (!tree) trees.set(routes, (tree = compile(routes)));
  return tree;
}

/**
 * How specific a branch's full pattern is, on React Router's scale: each static segment counts 10, a param 3,
 * an optional param 2, and a splat takes 2 off; an index route adds 2 over its parent. Higher wins; equal
 * ranks keep table order, so `/files/readme` beats `/files/*` wherever each is declared.
 */
export function rankOf(pattern: string, index = false): number {
  const segments = pattern.split("/").filter(Boolean);
  let rank = segments.length + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*" || segment === "*?") rank -= 2;
    else if (segment.startsWith(":")) rank += segment.endsWith("?") ? 2 : 3;
    else rank += 10;
  }
  return rank;
}

/** A branch and the name its matches carry: its full pattern, or for a layout matched loosely `<layout>/*`. */
type Branch = { levels: RouteNode[]; rank: number; name: string } & Compiled;

/** The first branch (in rank order) whose pattern matches the path, with each level's params. */
function firstMatch(branches: readonly Branch[], pathname: string): RouteMatch | undefined {
  for (const { levels, pattern, keys, name } of branches) {
    const found = pattern.exec(pathname);
    if (!found) continue;
    const matched = matchedLevels(levels, keys, found);
    const leaf = matched.at(-1)!;
    return { route: leaf.node.route, pattern: name, params: leaf.params, levels: matched };
  }
  return undefined;
}

/** Highest rank first; `sort` is stable, so equal ranks keep the table's order. */
const byRank = (branches: Branch[]) => branches.sort((a, b) => b.rank - a.rank);

function matchedLevels(levels: readonly RouteNode[], keys: readonly string[], found: RegExpExecArray): MatchedLevel[] {
  const params: Record<string, string> = {};
  // The caller has checked the path with decodeURI, so no param is malformed.
  keys.forEach((key, i) => {
    const raw = found[i + 1];
    if (raw !== undefined) params[key] = decodeURIComponent(raw);
  });
  const leaf = levels.at(-1)!;
  return levels.map((node) => ({ node, params: node === leaf ? params : pick(params, node.keys) }));
}

function compile(routes: readonly RouteDefinition[]): RouteTree {
  const nodes: RouteNode[] = [];
  const byId = new Map<string, RouteNode>();
  const byRoute = new Map<RouteDefinition, RouteNode>();
  // A route's children come before the route alone at equal rank, so its index child answers its own path.
  const branches: Branch[] = [];
  // Routes with children, matched loosely (a prefix of the path): where an unmatched path's not-found page shows.
  const layouts: Branch[] = [];
  const walk = (list: readonly RouteDefinition[], above: RouteNode[]) => {
    for (const route of list) {
      const pattern = joinPattern(above.at(-1)?.pattern, route);
      const id = route.id ?? (route.index ? `${pattern}?index` : pattern);
      if (byId.has(id)) throw new Error(`two routes have the id ${id}; give one an \`id\``);
      const node: RouteNode = { route, id, pattern, keys: parsePattern(pattern).keys };
      nodes.push(node);
      byId.set(id, node);
      if (!byRoute.has(route)) byRoute.set(route, node);
      const levels = [...above, node];
      if (route.children) {
        walk(route.children, levels);
        // Named as a splat under the layout: what wouter's <Route> matches the path with, and the logs' route.
        const name = `${pattern === "/" ? "" : pattern}/*`;
        layouts.push({ levels, rank: levels.length * 1000 + rankOf(pattern), name, ...parsePattern(pattern, true) });
      }
      if (!route.children?.some((child) => child.index))
        branches.push({ levels, rank: rankOf(pattern, route.index), name: pattern, ...parsePattern(pattern) });
    }
  };
  walk(routes, []);
  byRank(branches);
  // The deepest layout first, then by rank.
  byRank(layouts);
  return {
    nodes,
    byId,
    byRoute,
    match(pathname) {
      const exact = firstMatch(branches, pathname);
      if (exact) return exact;
      const layout = firstMatch(layouts, pathname);
      return layout ? { ...layout, missing: true } : null;
    },
  };
}

function pick(params: Record<string, string>, keys: readonly string[]): Record<string, string> {
  const own: Record<string, string> = {};
  for (const key of keys) if (key in params) own[key] = params[key]!;
  return own;
}

/**
 * The level whose action a post to the matched path runs: the innermost route's, or for an index route
 * without one its parent's (the parent's own path is the index route's).
 */
export function actionLevel(match: RouteMatch): MatchedLevel | undefined {
  if (match.missing) return undefined;
  const leaf = match.levels.at(-1)!;
  if (leaf.node.route.action) return leaf;
  const parent = match.levels.at(-2);
  return leaf.node.route.index && parent?.node.route.action ? parent : undefined;
}

const PAGE_METHODS = ["GET", "HEAD"] as const;
const methodsOf = new WeakMap<RouteDefinition, readonly string[]>();

/**
 * The methods a matched path answers: GET and HEAD unless it is an action-only route, POST with an action.
 * Worked out once per innermost route: a branch's levels are the same on every match.
 */
export function allowedMethods(match: RouteMatch | null): readonly string[] {
  if (!match || match.missing) return PAGE_METHODS;
  let methods = methodsOf.get(match.route);
  if (!methods) {
    const get = isResourceRoute(match.route) && !match.route.loader ? [] : PAGE_METHODS;
    methodsOf.set(match.route, (methods = actionLevel(match) ? [...get, "POST"] : get));
  }
  return methods;
}
