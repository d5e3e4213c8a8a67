// tunnel.ts: checks a Sentry envelope and forwards it to a configured DSN.
import { dsnToString, getEnvelopeEndpointWithUrlEncodedAuth, makeDsn } from "@sentry/core";
import { forward, reply, type Upstream } from "./tunnel-upstream.ts";
import { createAdmission, type Admission, type Slot } from "../bodies/admission.ts";
import { BODY_TIMEOUT_HEADERS, BodyTimeout, readBody, type BodyPace } from "../bodies/request-body.ts";
import { type Bytes } from "../request/responses.ts";
import { crossHostRefusal } from "../bodies/same-origin.ts";

export interface TunnelOptions {
  /** Every DSN envelopes may go to. Empty: the tunnel forwards nothing. */
  readonly dsns: readonly string[];
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxInFlight: number;
  /** How fast a body must arrive (BODY_TIMEOUT_MS, BODY_MIN_RATE, BODY_RATE_GRACE_MS); any pace when omitted. */
  readonly bodyPace?: BodyPace;
  readonly fetch?: typeof fetch;
  /** This site's origin may come from X-Forwarded-Proto/-Host (the cross-site check, as for form posts). */
  readonly trustProxy?: boolean;
}

export interface Tunnel extends Upstream {
  /** DSN as SDKs write it in an envelope header → ingest URL built from the configured DSN. */
  readonly ingestUrls: ReadonlyMap<string, string>;
  readonly maxBytes: number;
  /**
   * One slot per tunnel request from before its body is read until Sentry has answered, so the bodies the
   * tunnel holds take at most maxInFlight × maxBytes, however many uploads arrive at once; one visitor
   * takes at most its share of the slots.
   */
  readonly admission: Admission;
  readonly bodyPace?: BodyPace;
  readonly trustProxy: boolean;
}

export function createTunnel(options: TunnelOptions): Tunnel {
  const ingestUrls = new Map<string, string>();
  for (const raw of options.dsns) {
    const dsn = makeDsn(raw);
    // Fail at startup rather than drop envelopes for a DSN the SDK itself would refuse.
    if (!dsn) throw new Error("monitoring: SENTRY_DSN or SENTRY_TUNNEL_DSNS holds a DSN @sentry/core rejects");
    // SDKs put `dsnToString(dsn)` in the envelope header (see @sentry/core createEventEnvelopeHeaders), so
    // exact equality with that form is equality of every component (scheme, key, host, port, path,
    // project) with nothing to normalize: an uppercase or trailing-dot host, an IP for a name or extra
    // path is simply another string. The URL comes from the configured DSN, never the visitor's.
    ingestUrls.set(dsnToString(dsn), getEnvelopeEndpointWithUrlEncodedAuth(dsn));
  }
  return {
    ingestUrls,
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    admission: createAdmission(options.maxInFlight),
    bodyPace: options.bodyPace,
    fetch: options.fetch ?? fetch,
    trustProxy: options.trustProxy ?? false,
  };
}

const ENVELOPE_TYPE = "application/x-sentry-envelope";
export const decoder = new TextDecoder();

export function methodNotAllowed(): Response {
  return reply(405, "method not allowed", { allow: "POST" });
}

/** Without SENTRY_DSN there is no tunnel: a post from an old page or a bot is nothing to be alarmed about. */
export function notConfigured(what: string): Response {
  return reply(404, `${what} is not configured (SENTRY_DSN is unset)`);
}

export function tooBusy(): Response {
  return reply(429, "too many envelopes in flight", { "retry-after": "1" });
}

/** The parsed first line of an envelope when it is a JSON object; undefined otherwise. */
function parseEnvelopeHeader(bytes: Uint8Array): Record<string, unknown> | undefined {
  const end = bytes.indexOf(10);
  try {
    const header: unknown = JSON.parse(decoder.decode(end === -1 ? bytes : bytes.subarray(0, end)));
    return typeof header === "object" && header !== null && !Array.isArray(header)
      ? (header as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The body within `limit` and its pace, or the response that refuses it (a 408 marks the slot's client slow). */
export async function bodyOrRefusal(
  request: Request,
  limit: number,
  what: string,
  pace: BodyPace | undefined,
  slot: Slot,
): Promise<Bytes | Response> {
  try {
    return (await readBody(request, limit, pace, slot)) ?? reply(413, `${what} too large`);
  } catch (error) {
    if (!(error instanceof BodyTimeout)) return reply(400, `unreadable ${what} body`);
    slot.fellBehind();
    return reply(408, `${what}: ${error.message}`, { ...BODY_TIMEOUT_HEADERS });
  }
}

async function checkAndForward(
  request: Request,
  clientIp: string | undefined,
  tunnel: Tunnel,
  slot: Slot,
): Promise<Response> {
  const body = await bodyOrRefusal(request, tunnel.maxBytes, "envelope", tunnel.bodyPace, slot);
  if (body instanceof Response) return body;
  if (body.byteLength === 0) return reply(400, "missing envelope body");
  const header = parseEnvelopeHeader(body);
  if (!header) return reply(400, "envelope header is not a JSON object");
  if (typeof header.dsn !== "string") return reply(400, "envelope header has no dsn");
  // SECURITY: only configured destinations, or the endpoint becomes an open proxy.
  const ingestUrl = tunnel.ingestUrls.get(header.dsn);
  if (ingestUrl === undefined) return reply(403, "dsn not allowed");
  return forward(body, ingestUrl, ENVELOPE_TYPE, clientIp, tunnel);
}

export async function handleMonitoring(
  request: Request,
  clientIp: string | undefined,
  tunnel: Tunnel,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed();
  if (tunnel.ingestUrls.size === 0) return notConfigured("the monitoring tunnel");
  // Another site's page must not spend our Sentry quota through its visitors' browsers.
  if (crossHostRefusal(request, tunnel)) return reply(403, "cross-site envelopes are refused");
  // Admitted before a byte of the body is read: a flood costs no buffering past the slots.
  return (
    (await tunnel.admission.run(clientIp, (slot) => checkAndForward(request, clientIp, tunnel, slot))) ?? tooBusy()
  );
}
