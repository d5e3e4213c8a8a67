// submission.ts: the checks a form post to a route with an action passes before the action runs, in this
// order: a request from this site's own pages (else 403, before any byte of the body is read), a free slot
// to read it in (else 429, so bodies being read hold a bounded amount of memory and a few visitors cannot
// take every slot), and a body within ACTION_MAX_BYTES, at its pace (BODY_MIN_RATE, BODY_TIMEOUT_MS), of a
// type an action reads (else 413, 408, 400 or 415; no body and no type is an empty form).
import type { ActionBody } from "../../runtime/route.ts";
import { TOO_MANY_UPLOADS, type BodyReads } from "./body-reads.ts";
import { text } from "../request/responses.ts";
import { BODY_TIMEOUT_HEADERS } from "./request-body.ts";
import { crossSiteRefusal } from "./same-origin.ts";

export interface SubmissionLimits {
  trustProxy: boolean;
  /** Bodies read at once, actions' and API routes' together; past it 429, the body unread. */
  bodyReads: BodyReads;
}

/**
 * SECURITY: a page elsewhere can make a visitor's browser post here with the visitor's cookies; only this
 * site's own pages may run an action. Decided from headers alone, before any middleware or body byte.
 * `url` is the request's, parsed (its scheme and host are what count).
 */
export function refuseCrossSite(request: Request, url: URL, limits: SubmissionLimits): Response | undefined {
  const crossSite = crossSiteRefusal(request, limits, url);
  return crossSite ? text(403, `cross-site request refused: ${crossSite}`) : undefined;
}

/** A same-site post's body (refuseCrossSite first), read within the limits. */
export async function readSubmission(request: Request, limits: SubmissionLimits): Promise<ActionBody | Response> {
  // No body and no type (`fetch(url, { method: "POST" })`, `curl -X POST`): a form without fields, as a
  // browser sends for one, not a 415 for a type nobody named.
  if (request.body === null && !request.headers.has("content-type")) return { kind: "form", form: new FormData() };
  const body = await limits.bodyReads.read(request);
  if (!body) return text(429, TOO_MANY_UPLOADS, { "retry-after": "1" });
  if (!body.ok) return text(body.status, body.message, body.status === 408 ? { ...BODY_TIMEOUT_HEADERS } : {});
  return body.kind === "form" ? { kind: "form", form: body.form } : { kind: "json", json: body.json };
}
