// host-check.ts: refuses (400) a request whose Host header gives no URL to route by: missing, repeated, or too short for Elysia.
import { Elysia } from "elysia";
import { text } from "./text.ts";

/**
 * Elysia finds the path with `url.indexOf("/", 11)`: it assumes a host of at least four characters
 * ("http://a.bc/"). With a shorter one the search starts inside the path, so `Host: x` and
 * `/ab/healthz` route as `/healthz` (README, Known issues). Such requests are refused instead.
 */
const ELYSIA_PATH_SEARCH_FROM = 11;

/** The path of a request URL; with no usable Host, Bun leaves the URL as the bare request target. */
export function requestPath(url: string): string {
  const start = url.startsWith("/") ? 0 : url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/** Why the request cannot be routed by its URL, or undefined when it can. */
function hostProblem(request: Request): string | undefined {
  const { url } = request;
  if (!url.startsWith("http://") && !url.startsWith("https://")) return "missing or invalid Host header";
  // Bun joins repeated headers with ", ", and a host never holds a comma.
  if (request.headers.get("host")?.includes(",")) return "more than one Host header";
  // The path starts after "http://" + host; a first "/" before index 11 is one Elysia skips.
  if (url.indexOf("/", "https://".length) < ELYSIA_PATH_SEARCH_FROM) return "Host header too short (at least 4 characters)";
  return undefined;
}

/** Runs before every handler; the request still gets its log line, with the path it really asked for. */
export function hostCheckPlugin() {
  return new Elysia({ name: "brisk:host-check" }).onBeforeHandle({ as: "global" }, function checkHost({ request }) {
    const problem = hostProblem(request);
    if (problem) return text(400, problem);
  });
}
