// api.ts: mounts the app's API routes before the pages. Under /api/ every response is JSON: an unknown path
// is a JSON 404 and a known path with another method a 405 with `Allow`, never the HTML not-found page.
import { Elysia, type AnyElysia } from "elysia";
import { parse } from "regexparam";
import { TOO_MANY_UPLOADS, type BodyReads } from "../bodies/body-reads.ts";
import { contextOf } from "../request/context.ts";
import { cookiesSetBy } from "./request-cookies.ts";
import { refuseCrossSiteWrites } from "./api-cross-site.ts";
import { apiChainHooks } from "./api-chain.ts";
import { jsonError } from "../request/responses.ts";
import { API_PREFIX, isApiPath } from "../request/request-path.ts";

/** The methods each API path answers, from the app's own route list, so a 405 can say which are allowed. */
function apiMethods(api: AnyElysia | undefined): (path: string) => string[] {
  const routes = (api?.routes ?? [])
    .filter((r) => isApiPath(r.path))
    .map((r) => ({ method: r.method.toUpperCase(), pattern: parse(r.path).pattern }));
  return (path) => {
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  };
}

/** A body the API's parser refused (too big, malformed, not JSON or a form): its status and why. */
export class BodyRefused extends Error {
  constructor(
    readonly status: 400 | 408 | 413 | 415 | 429,
    message: string,
  ) {
    super(message);
    this.name = "BodyRefused";
  }
}

/**
 * Elysia would read any body whole; this reads it within ACTION_MAX_BYTES and BODY_TIMEOUT_MS, counted while
 * reading, in the pool the actions share, and refuses other types with 415. A JSON body is its value; a form
 * is a plain object of its fields, so an Elysia schema (`t.Object`) checks either.
 */
function parseWithinLimit(bodyReads: BodyReads) {
  return async function parseApiBody({ request }: { request: Request }) {
    // Nothing to read: the route runs without a body (and a schema that wants one says so with a 422).
    if (request.body === null) return undefined;
    const body = await bodyReads.read(request);
    if (!body) throw new BodyRefused(429, TOO_MANY_UPLOADS);
    if (!body.ok) throw new BodyRefused(body.status, body.message);
    return body.kind === "json" ? body.json : firstValues(body.form);
  };
}

/**
 * A form's fields, each sent more than once read as its first value: what `form.get()` gives an action, so a
 * field means one thing to every part of the app (one part reading the first and another the last is how
 * a repeated parameter slips a value past a check). A list is sent as JSON.
 */
function firstValues(form: FormData): Record<string, FormDataEntryValue> {
  const fields = new Map<string, FormDataEntryValue>();
  for (const [name, value] of form) if (!fields.has(name)) fields.set(name, value);
  return Object.fromEntries(fields);
}

export interface ApiOptions {
  bodyReads: BodyReads;
  /** Judge a write's site by X-Forwarded-Proto and X-Forwarded-Host (TRUST_PROXY), as for page actions. */
  trustProxy: boolean;
}

export function apiPlugin(api: AnyElysia | undefined, { bodyReads, trustProxy }: ApiOptions) {
  const allowed = apiMethods(api);
  const unmatched = ({ request }: { request: Request }) => {
    const methods = allowed(contextOf(request).path);
    if (methods.length === 0) return jsonError(404, "not found");
    return jsonError(405, "method not allowed", {}, { allow: methods.join(", ") });
  };
  // Only an API that uses apiMiddleware has the chain's hooks: an after-response hook costs every request a task
  // of its own, and an async hook makes every route's handling async.
  const chain = apiChainHooks(api);
  // In this order: a cross-site write is refused on its headers alone, then the route's middleware run (a guard
  // refuses before the body is read), then the body is read.
  const plugin = new Elysia({ name: "brisk:api" }).onParse(refuseCrossSiteWrites(api, { trustProxy }));
  if (chain) plugin.onParse(chain.runApiMiddleware);
  plugin
    .onParse(parseWithinLimit(bodyReads))
    // The route's pattern, as Elysia matched it (`/api/notes/:id`): the log line's route, and the name
    // of its Sentry transaction and error events.
    .onTransform(function nameApiRoute({ request, route }) {
      contextOf(request).route = route;
    })
    .onAfterHandle(function setApiCookies({ request, set }) {
      const setCookies = cookiesSetBy(request);
      if (setCookies.length) set.headers["set-cookie"] = setCookies;
    });
  // After nameApiRoute, before Elysia checks the schema: what the middleware answered goes out instead of a 422.
  if (chain)
    plugin
      .onTransform(chain.answerApiMiddleware)
      .mapResponse(chain.handResponseToMiddleware)
      .onAfterResponse(chain.endApiMiddleware);
  if (api) plugin.use(api);
  return plugin.all(API_PREFIX, unmatched).all(`${API_PREFIX}/*`, unmatched);
}
