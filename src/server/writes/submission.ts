// submission.ts: the checks a form post to a route with an action passes before the action runs, in this
// order: a request from this site's own pages (else 403, before any byte of the body is
// read), a free slot to read it in (else 429, so bodies being read hold a bounded amount of memory), and a
// body within ACTION_MAX_BYTES of a type an action reads (else 413, 400 or 415).
import type { ActionBody } from "../../runtime/route.ts";
import { readActionBody } from "./body.ts";
import { text } from "../http/text.ts";
import type { Admission } from "./request-body.ts";
import { crossSiteRefusal } from "./same-origin.ts";

export interface SubmissionLimits {
  actionMaxBytes: number;
  trustProxy: boolean;
  /** Bodies read at once, actions' and API routes' together; past it 429, the body unread. */
  bodyReads: Admission;
}

/** Bodies being read at once: they hold at most this × ACTION_MAX_BYTES (64 MiB with the default 1 MiB). */
export const BODY_READS_AT_ONCE = 64;

export const TOO_MANY_UPLOADS = "too many request bodies being read at once; try again";

export async function readSubmission(request: Request, limits: SubmissionLimits): Promise<ActionBody | Response> {
  // SECURITY: a page elsewhere can make a visitor's browser post here with the visitor's cookies; only
  // this site's own pages may run an action. Decided from headers alone, before the body is read.
  const crossSite = crossSiteRefusal(request, { trustProxy: limits.trustProxy });
  if (crossSite) return text(403, `cross-site request refused: ${crossSite}`);
  const body = await limits.bodyReads.run(() => readActionBody(request, { maxBytes: limits.actionMaxBytes }));
  if (!body) return text(429, TOO_MANY_UPLOADS, { "retry-after": "1" });
  if (!body.ok) return text(body.status, body.message);
  return body.kind === "form" ? { kind: "form", form: body.form } : { kind: "json", json: body.json };
}
