// monitoring.ts: checks a Sentry envelope and forwards it to a configured DSN.
import { dsnToString, getEnvelopeEndpointWithUrlEncodedAuth, makeDsn } from "@sentry/core";
import type { Server } from "bun";
import { Elysia } from "elysia";
import type { Config } from "./config.ts";
import { readBody, type Bytes } from "./read-body.ts";
import { CSP_REPORT_PATH } from "./security-headers.ts";

export interface TunnelOptions {
  /** Every DSN envelopes may go to. Empty: the tunnel forwards nothing. */
  readonly dsns: readonly string[];
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxInFlight: number;
  readonly fetch?: typeof fetch;
}

export interface Tunnel {
  /** DSN as SDKs write it in an envelope header → ingest URL built from the configured DSN. */
  readonly ingestUrls: ReadonlyMap<string, string>;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxInFlight: number;
  readonly fetch: typeof fetch;
  /** Upstream requests not yet answered. */
  inFlight: number;
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
    maxInFlight: options.maxInFlight,
    fetch: options.fetch ?? fetch,
    inFlight: 0,
  };
}

const UPSTREAM_BODY_LIMIT = 64 * 1024;
const PASSED_HEADERS = ["content-type", "retry-after", "x-sentry-rate-limits"] as const;
const ENVELOPE_TYPE = "application/x-sentry-envelope";
const TEXT = "text/plain; charset=utf-8";
const decoder = new TextDecoder();

function reply(status: number, message: string, headers?: Record<string, string>): Response {
  return new Response(message, { status, headers: { "content-type": TEXT, ...headers } });
}

export function methodNotAllowed(): Response {
  return reply(405, "method not allowed", { allow: "POST" });
}

/** The parsed first line of an envelope when it is a JSON object; undefined otherwise. */
export function parseEnvelopeHeader(bytes: Uint8Array): Record<string, unknown> | undefined {
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

export async function handleMonitoring(
  request: Request,
  clientIp: string | undefined,
  tunnel: Tunnel,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed();
  if (tunnel.ingestUrls.size === 0) {
    return reply(503, "monitoring tunnel is not configured (SENTRY_DSN is unset)");
  }
  // Checked before reading so a flood against a stuck upstream costs no body buffering.
  if (tunnel.inFlight >= tunnel.maxInFlight) return tooBusy();
  let body: Bytes | undefined;
  try {
    body = await readBody(request, tunnel.maxBytes);
  } catch {
    return reply(400, "unreadable envelope body");
  }
  if (!body) return reply(413, "envelope too large");
  if (body.byteLength === 0) return reply(400, "missing envelope body");
  const header = parseEnvelopeHeader(body);
  if (!header) return reply(400, "envelope header is not a JSON object");
  if (typeof header.dsn !== "string") return reply(400, "envelope header has no dsn");
  // SECURITY: only configured destinations, or the endpoint becomes an open proxy.
  const ingestUrl = tunnel.ingestUrls.get(header.dsn);
  if (ingestUrl === undefined) return reply(403, "dsn not allowed");
  if (tunnel.inFlight >= tunnel.maxInFlight) return tooBusy();
  return forward(body, ingestUrl, ENVELOPE_TYPE, clientIp, tunnel);
}

/** Browsers' CSP violation reports: small JSON documents in one of two formats. */
const CSP_REPORT_TYPES = ["application/csp-report", "application/reports+json"];
const CSP_REPORT_MAX_BYTES = 64 * 1024;

/** Sentry's security endpoint for the configured DSN: it turns CSP reports into issues. */
export function securityEndpoint(dsn: string | undefined): string | undefined {
  const d = dsn === undefined ? undefined : makeDsn(dsn);
  if (!d) return undefined;
  const port = d.port ? `:${d.port}` : "";
  const path = d.path ? `/${d.path}` : "";
  return `${d.protocol}://${d.host}${port}${path}/api/${d.projectId}/security/?sentry_key=${encodeURIComponent(d.publicKey ?? "")}`;
}

export async function handleCspReport(
  request: Request,
  clientIp: string | undefined,
  endpoint: string | undefined,
  tunnel: Tunnel,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed();
  if (!endpoint) return reply(503, "CSP reporting is not configured (SENTRY_DSN is unset)");
  const type = request.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  if (!CSP_REPORT_TYPES.includes(type)) return reply(415, "expected application/csp-report or application/reports+json");
  if (tunnel.inFlight >= tunnel.maxInFlight) return tooBusy();
  let body: Bytes | undefined;
  try {
    body = await readBody(request, CSP_REPORT_MAX_BYTES);
  } catch {
    return reply(400, "unreadable report body");
  }
  if (!body) return reply(413, "report too large");
  // The destination is fixed by configuration; the body only has to be what Sentry parses.
  try {
    JSON.parse(decoder.decode(body));
  } catch {
    return reply(400, "report is not JSON");
  }
  return forward(body, endpoint, type, clientIp, tunnel);
}

function tooBusy(): Response {
  return reply(429, "too many envelopes in flight", { "retry-after": "1" });
}

async function forward(
  body: Bytes,
  ingestUrl: string,
  contentType: string,
  clientIp: string | undefined,
  tunnel: Tunnel,
): Promise<Response> {
  tunnel.inFlight++;
  try {
    // A fresh header set: no visitor cookie, Authorization or other header may reach Sentry.
    const headers: Record<string, string> = { "content-type": contentType };
    if (clientIp) headers["x-forwarded-for"] = clientIp;
    const upstream = await tunnel.fetch(ingestUrl, {
      method: "POST",
      body,
      headers,
      // A redirect would send the envelope somewhere nobody configured.
      redirect: "manual",
      signal: AbortSignal.timeout(tunnel.timeoutMs),
    });
    if (upstream.status >= 300 && upstream.status < 400) {
      upstream.body?.cancel().catch(() => {});
      return reply(502, "monitoring upstream redirected");
    }
    const passed: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) passed[name] = value;
    }
    const answer = await readBody(upstream, UPSTREAM_BODY_LIMIT);
    return new Response(answer?.byteLength ? answer : null, { status: upstream.status, headers: passed });
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") return reply(504, "monitoring upstream timed out");
    return reply(502, "monitoring upstream unreachable");
  } finally {
    tunnel.inFlight--;
  }
}

/**
 * node:net is required on first use: loading it makes Bun build Node's stream internals, ~10 ms of cold
 * start that only a server behind a trusted proxy has any use for.
 */
let isIP: typeof import("node:net").isIP | undefined;

/** The visitor's address: the first X-Forwarded-For entry behind a trusted proxy, else the socket's. */
export function visitorIp(request: Request, server: Server<unknown> | null, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    if (forwarded) {
      const comma = forwarded.indexOf(",");
      const first = (comma === -1 ? forwarded : forwarded.slice(0, comma)).trim();
      isIP ??= (import.meta.require("node:net") as typeof import("node:net")).isIP;
      if (isIP(first)) return first;
    }
  }
  return server?.requestIP(request)?.address;
}

export function monitoringPlugin(config: Config, options: { fetch?: typeof fetch } = {}) {
  const tunnel = createTunnel({
    dsns: config.tunnelDsns,
    maxBytes: config.monitoringMaxBytes,
    timeoutMs: config.monitoringTimeoutMs,
    maxInFlight: config.monitoringMaxInFlight,
    fetch: options.fetch,
  });
  const { trustProxy } = config;
  const cspEndpoint = securityEndpoint(config.sentryDsn);
  return new Elysia({ name: "brisk:monitoring" })
    .post(
      CSP_REPORT_PATH,
      ({ request, server }) => handleCspReport(request, visitorIp(request, server, trustProxy), cspEndpoint, tunnel),
      { parse: "none" },
    )
    .all(CSP_REPORT_PATH, methodNotAllowed, { parse: "none" })
    .post(
      "/monitoring",
      ({ request, server }) => handleMonitoring(request, visitorIp(request, server, trustProxy), tunnel),
      { parse: "none" },
    )
    .all("/monitoring", methodNotAllowed, { parse: "none" });
}
