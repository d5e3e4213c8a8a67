// host-check.ts: refuses (400) a request whose Host header gives no URL to route by: missing, repeated, or too
// short for Elysia; and tells whether a Host names the development server (DNS rebinding).
import { text } from "../request/responses.ts";

/**
 * Elysia finds the path with `url.indexOf("/", 11)`: it assumes a host of at least four characters
 * ("http://a.bc/"). With a shorter one the search starts inside the path, so `Host: x` and
 * `/ab/healthz` route as `/healthz` (docs/reference/http.md, "What Bun does first"). Such requests are refused instead.
 */
const ELYSIA_PATH_SEARCH_FROM = 11;

/** Why the request cannot be routed by its URL, or undefined when it can. */
function hostProblem(request: Request): string | undefined {
  const { url } = request;
  if (!url.startsWith("http://") && !url.startsWith("https://")) return "missing or invalid Host header";
  // Bun joins repeated headers with ", ", and a host never holds a comma.
  if (request.headers.get("host")?.includes(",")) return "more than one Host header";
  // The path starts after "http://" + host; a first "/" before index 11 is one Elysia skips.
  if (url.indexOf("/", "https://".length) < ELYSIA_PATH_SEARCH_FROM)
    return "Host header too short (at least 4 characters)";
  return undefined;
}

/** The 400 for a request no URL can be routed by, before anything reads its body or routes it. */
export function hostRefusal(request: Request): Response | undefined {
  const problem = hostProblem(request);
  return problem === undefined ? undefined : text(400, problem);
}

/** The loopback names and addresses: a HOST among them keeps the development server on this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/**
 * Whether a request's Host names the development server: localhost (and `*.localhost`), an IP address, or
 * the name HOST gives. A page on another site can make its own name resolve to 127.0.0.1 (DNS rebinding)
 * and then read what it fetches there as its own, development pages' stacks and paths included; its
 * requests still carry its name in Host. An address names no site, so it cannot be a rebinding page's.
 */
export function isDevServerHost(host: string | null, listenHost: string): boolean {
  const name = host === null ? undefined : URL.parse(`http://${host}`)?.hostname;
  if (!name) return false;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (name.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(name)) return true;
  return name === listenHost.toLowerCase();
}
