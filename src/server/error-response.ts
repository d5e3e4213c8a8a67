// error-response.ts: the response to whatever a handler or plugin threw, from the one global error hook.
// Outcomes answer for themselves, the request's own faults are 4xx, and the rest is a 500 with a digest,
// reported once. Under /api/ it is JSON; elsewhere plain text (pages render their own error pages).
import type { ErrorHandler } from "elysia";
import { isOutcome } from "../runtime/outcome.ts";
import { BodyRefused } from "./api/api.ts";
import { INTERNAL_SERVER_ERROR, jsonError } from "./request/responses.ts";
import { isApiPath } from "./request/request-path.ts";
import { CrossSiteRefused } from "./api/api-cross-site.ts";
import { MiddlewareAnswer } from "./api/api-chain.ts";
import { text } from "./request/responses.ts";
import { BODY_TIMEOUT_HEADERS } from "./bodies/request-body.ts";
import { contextOf, reportError, type CaptureError } from "./request/context.ts";
import { cookiesSetBy } from "./api/request-cookies.ts";

/** What failed: as Elysia's error hook is handed it, or as the request pipeline meets it (code UNKNOWN, no route). */
interface Failure {
  request: Request;
  error: unknown;
  code: Parameters<ErrorHandler>[0]["code"];
  route?: string;
}

interface SchemaError {
  /** Which part failed: `body`, `query`, `params`, `headers`, or `property` for a coerced value (`t.Numeric`). */
  type?: string;
  /** What was checked: for a `property`, the value alone. */
  value?: unknown;
  all?: Array<{ path?: string; summary?: string; message?: string }>;
}

/**
 * The query parameter a coerced value came from. Elysia checks a `t.Numeric` (or Boolean, Date…) query field on
 * its own after converting it and forgets its name: the field is the one whose text converts to that value.
 */
function coercedField(url: URL, value: unknown): string | undefined {
  const named = [...url.searchParams].filter(
    ([, raw]) => raw === String(value) || (raw.trim() !== "" && Number(raw) === value),
  );
  return new Set(named.map(([name]) => name)).size === 1 ? named[0]![0] : undefined;
}

/** Field → first problem, from Elysia's schema errors (`/name` → `name`); a whole part is named by the part. */
function fieldErrors(error: unknown, url: URL): Record<string, string> {
  const { type = "body", value, all = [] } = error as SchemaError;
  const part = type === "property" ? (coercedField(url, value) ?? "query") : type;
  const fields: Record<string, string> = {};
  for (const e of all) {
    const field = (e.path ?? "").replace(/^\//, "").replaceAll("/", ".") || part;
    fields[field] ??= e.summary ?? e.message ?? "invalid";
  }
  return fields;
}

/**
 * An outcome ends an API route on purpose, so what it set before goes out with it: the session a sign-in
 * form's post stored before its 303, as a route without a page sends them.
 */
function withCookiesSet(response: Response, request: Request): Response {
  for (const cookie of cookiesSetBy(request)) response.headers.append("set-cookie", cookie);
  return response;
}

export function errorResponse(ctx: Failure, capture: CaptureError): Response {
  const { request, error, code, route } = ctx;
  const context = contextOf(request);
  const json = isApiPath(context.path);
  if (isOutcome(error)) return withCookiesSet(error.toResponse(json ? "json" : "text"), request);
  // An API route's middleware returned its own Response before Elysia checked the schema.
  if (error instanceof MiddlewareAnswer) return withCookiesSet(error.response, request);
  // Elysia wraps what a parse hook throws in its own ParseError; the API's body reader's refusal is the cause.
  const refused = error instanceof BodyRefused ? error : (error as { cause?: unknown }).cause;
  if (refused instanceof BodyRefused) {
    const headers: Record<string, string> =
      refused.status === 429 ? { "retry-after": "1" } : refused.status === 408 ? { ...BODY_TIMEOUT_HEADERS } : {};
    return json
      ? jsonError(refused.status, refused.message, {}, headers)
      : text(refused.status, refused.message, headers);
  }
  // Thrown by the API's first parse hook, wrapped by Elysia like the body reader's refusal.
  const crossSite = (error as { cause?: unknown }).cause;
  if (crossSite instanceof CrossSiteRefused) {
    const message = "cross-site request refused";
    return json
      ? jsonError(403, message, { reason: crossSite.message })
      : text(403, `${message}: ${crossSite.message}`);
  }
  if (code === "NOT_FOUND") return json ? jsonError(404, "not found") : text(404, "not found");
  if (code === "PARSE") return json ? jsonError(400, "malformed request body") : text(400, "malformed request body");
  if (code === "VALIDATION") {
    return json
      ? jsonError(422, "invalid request", { fields: fieldErrors(error, new URL(request.url)) })
      : text(400, "invalid request");
  }
  // A visitor who went away mid-request is not a failure of ours.
  if (request.signal.aborted) return new Response(null, { status: 499 });
  // Elysia catches what a handler throws, so this is the one place left to see it. A failure before the
  // app named the route (a plugin's handler, a body parser) is named after Elysia's route pattern.
  if (route) context.route ??= route;
  const digest = reportError(context, error, "handler", capture);
  if (json) return jsonError(500, INTERNAL_SERVER_ERROR, { digest, requestId: context.id });
  return text(500, `${INTERNAL_SERVER_ERROR} (digest ${digest})`);
}
