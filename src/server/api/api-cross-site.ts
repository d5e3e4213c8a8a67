// api-cross-site.ts: refuses (403) a write to the app's API routes from another site, before its body is read,
// unless the route opts out with `{ allowCrossSite: true }` (a public webhook).
import { Elysia, type AnyElysia } from "elysia";
import { crossSiteRefusal } from "../bodies/same-origin.ts";

/** The methods that change something: a browser sends them with the visitor's cookies from any page. */
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The route option that lets another site's pages write to a route: `.use(allowCrossSite)` on the app's API,
 * then `{ allowCrossSite: true }` on the route. Such a route trusts no cookie: it checks its caller itself (a
 * webhook's signature). A macro, so the option is typed and spelled once; the refusal reads it off the route.
 */
export const allowCrossSite = new Elysia({ name: "brisk:allow-cross-site" }).macro({ allowCrossSite: {} });

/** Thrown from the API's first parse hook; the error handler answers it (JSON under /api/) with its reason. */
export class CrossSiteRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "CrossSiteRefused";
  }
}

/** `METHOD path` of every route that opted out, as Elysia registered them. */
function optedOut(api: AnyElysia | undefined): ReadonlySet<string> {
  const open = (api?.routes ?? []).filter(
    (r) => (r.hooks as { allowCrossSite?: unknown } | undefined)?.allowCrossSite === true,
  );
  return new Set(open.map((r) => `${r.method.toUpperCase()} ${r.path}`));
}

/**
 * The API's first parse hook: Elysia runs parse hooks for every write to a route, body or not, before
 * anything reads the body, and a refusal thrown there ends the request before the next hook reads it.
 */
export function refuseCrossSiteWrites(api: AnyElysia | undefined, options: { trustProxy: boolean }) {
  const open = optedOut(api);
  return function refuseCrossSiteWrite({ request, route }: { request: Request; route: string }): undefined {
    // Fetch leaves a method other than the six standard ones as it was sent: `patch` is a write too.
    const method = request.method.toUpperCase();
    if (!WRITES.has(method) || open.has(`${method} ${route}`) || open.has(`ALL ${route}`)) return;
    // SECURITY: a page elsewhere can make a visitor's browser post a form here with the visitor's cookies
    // (a form needs no CORS preflight): the rule that guards page actions keeps it out.
    const refusal = crossSiteRefusal(request, options);
    if (refusal) throw new CrossSiteRefused(refusal);
  };
}
