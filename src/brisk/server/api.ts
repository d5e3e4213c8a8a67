// api.ts: mounts the app's API routes before the pages. Under /api/ every answer is JSON: an unknown path
// is a JSON 404 and a known path with another method a 405 with `Allow`, never the HTML not-found page.
import { Elysia, type AnyElysia } from "elysia";
import { parse } from "regexparam";
import { recordOf } from "./request-record.ts";

export const API_PREFIX = "/api";

export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/** The body of every JSON failure: what went wrong, plus what the status needs (digest, fields). */
export function jsonError(status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return Response.json({ error, ...extra }, { status, headers: { "cache-control": "no-store", ...headers } });
}

/** The methods each API path answers, from the app's own route list, so a 405 can say which are allowed. */
function allowedMethods(api: AnyElysia | undefined): (path: string) => string[] {
  const routes = (api?.routes ?? [])
    .filter((r) => isApiPath(r.path))
    .map((r) => ({ method: r.method.toUpperCase(), pattern: parse(r.path).pattern }));
  return (path) => {
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  };
}

export function apiPlugin(api: AnyElysia | undefined) {
  const allowed = allowedMethods(api);
  const unmatched = ({ request }: { request: Request }) => {
    const methods = allowed(recordOf(request).path);
    if (methods.length === 0) return jsonError(404, "not found");
    return jsonError(405, "method not allowed", {}, { allow: methods.join(", ") });
  };
  const plugin = new Elysia({ name: "brisk:api" });
  if (api) plugin.use(api);
  return plugin.all(API_PREFIX, unmatched).all(`${API_PREFIX}/*`, unmatched);
}
