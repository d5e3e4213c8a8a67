// csp-reports.ts: forwards browsers' Content-Security-Policy violation reports to Sentry's security endpoint for
// the configured DSN, through the tunnel's slots and limits.
import { makeDsn } from "@sentry/core";
import type { Slot } from "../bodies/admission.ts";
import { forward, reply } from "./tunnel-upstream.ts";
import { bodyOrRefusal, decoder, methodNotAllowed, notConfigured, tooBusy, type Tunnel } from "./tunnel.ts";

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

async function checkAndForwardReport(
  request: Request,
  type: string,
  clientIp: string | undefined,
  endpoint: string,
  tunnel: Tunnel,
  slot: Slot,
) {
  const body = await bodyOrRefusal(request, CSP_REPORT_MAX_BYTES, "report", tunnel.bodyPace, slot);
  if (body instanceof Response) return body;
  // The destination is fixed by configuration; the body only has to be what Sentry parses.
  try {
    JSON.parse(decoder.decode(body));
  } catch {
    return reply(400, "report is not JSON");
  }
  return forward(body, endpoint, type, clientIp, tunnel);
}

export async function handleCspReport(
  request: Request,
  clientIp: string | undefined,
  endpoint: string | undefined,
  tunnel: Tunnel,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed();
  if (!endpoint) return notConfigured("CSP reporting");
  const type = request.headers.get("content-type")?.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  if (!CSP_REPORT_TYPES.includes(type))
    return reply(415, "expected application/csp-report or application/reports+json");
  return (
    (await tunnel.admission.run(clientIp, (slot) =>
      checkAndForwardReport(request, type, clientIp, endpoint, tunnel, slot),
    )) ?? tooBusy()
  );
}
