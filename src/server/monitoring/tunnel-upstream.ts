// tunnel-upstream.ts: sends one accepted body on to Sentry and turns Sentry's response into the visitor's.
import { readBody } from "../bodies/request-body.ts";
import { type Bytes } from "../request/responses.ts";

export interface Upstream {
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
}

/** Sentry answers with a small JSON document; anything longer is not passed on. */
const RESPONSE_MAX_BYTES = 64 * 1024;
const PASSED_HEADERS = ["retry-after", "x-sentry-rate-limits"] as const;
/**
 * Sent with every 502, 503 and 504 that does not already carry one: Sentry's SDKs then wait this long before
 * sending again, as they do after a 429 without one, instead of retrying into an outage at once.
 */
export const RETRY_AFTER_SECONDS = "60";
const TEXT = "text/plain; charset=utf-8";

export function reply(status: number, message: string, headers?: Record<string, string>): Response {
  return new Response(message, { status, headers: { "content-type": TEXT, ...headers } });
}

function unavailable(status: 502 | 504, message: string): Response {
  return reply(status, message, { "retry-after": RETRY_AFTER_SECONDS });
}

/** Sentry's own responses are JSON; an HTML page (a proxy's error page, a captive portal) is not passed on. */
function isJson(contentType: string | null): boolean {
  return contentType?.split(";", 1)[0]!.trim().toLowerCase() === "application/json";
}

async function visitorResponse(upstream: Response): Promise<Response> {
  if (upstream.status >= 300 && upstream.status < 400) {
    upstream.body?.cancel().catch(() => {});
    // A redirect would send the envelope somewhere nobody configured.
    return unavailable(502, "monitoring upstream redirected");
  }
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  if ((upstream.status === 502 || upstream.status === 503 || upstream.status === 504) && !headers["retry-after"]) {
    headers["retry-after"] = RETRY_AFTER_SECONDS;
  }
  const contentType = upstream.headers.get("content-type");
  let body: Bytes | undefined;
  if (isJson(contentType)) body = await readBody(upstream, RESPONSE_MAX_BYTES);
  else upstream.body?.cancel().catch(() => {});
  if (!body?.byteLength) return new Response(null, { status: upstream.status, headers });
  headers["content-type"] = contentType!;
  return new Response(body, { status: upstream.status, headers });
}

/**
 * The bytes as fetch takes them at the least cost: their own buffer, handed over (`transfer()`), when they
 * fill it: less memory per upload in flight than when fetch is given the view (bench/README.md, figures the
 * source carried: the tunnel). A view on part of a larger buffer goes as it is.
 */
function handOver(bytes: Bytes): BodyInit {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer.transfer() : bytes;
}

/**
 * POSTs `body` to `url` with a fresh set of headers: no visitor cookie, Authorization or other header goes on.
 * `body` is handed over: it is empty afterwards.
 */
export async function forward(
  body: Bytes,
  url: string,
  contentType: string,
  clientIp: string | undefined,
  upstream: Upstream,
): Promise<Response> {
  // identity: a compressed response can inflate far past what it declares (readBody counts decoded bytes anyway).
  const headers: Record<string, string> = { "content-type": contentType, "accept-encoding": "identity" };
  if (clientIp) headers["x-forwarded-for"] = clientIp;
  try {
    const upstreamResponse = await upstream.fetch(url, {
      method: "POST",
      body: handOver(body),
      headers,
      redirect: "manual",
      // Bounds reading the response too.
      signal: AbortSignal.timeout(upstream.timeoutMs),
    });
    return await visitorResponse(upstreamResponse);
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError")
      return unavailable(504, "monitoring upstream timed out");
    return unavailable(502, "monitoring upstream unreachable");
  }
}
