// forwarded.ts: who a request comes from: the socket's address, or behind TRUST_PROXY the address the
// proxy nearest the visitor saw. Everything that reads a visitor's address asks here: each visitor's share of
// the body reads and of the tunnel, the X-Forwarded-For the tunnel passes to Sentry, and Sentry's events.
import type { Server } from "bun";

/**
 * node:net is required on first use: loading it makes Bun build Node's stream internals, cold start that only
 * a server behind a trusted proxy has any use for (bench/README.md, figures the source carried: start-up).
 */
let isIP: typeof import("node:net").isIP | undefined;

/**
 * The visitor's address. Each of the `proxyHops` (TRUST_PROXY) proxies in front of this server appends the
 * address it saw to X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`, load balancers), so the visitor
 * is the entry that many places from the right. What stands left of it the visitor wrote: a client that
 * changes it on every request is still the one client. With fewer entries than hops, the leftmost. Without
 * the header, or when that entry is not an address, the socket's: the nearest proxy's, the same for all such
 * requests, never a value the visitor chose.
 */
export function visitorAddress(
  request: Request,
  server: Server<unknown> | null,
  proxyHops: number,
): string | undefined {
  const forwarded = proxyHops > 0 ? request.headers.get("x-forwarded-for") : null;
  if (forwarded) {
    const entries = forwarded.split(",");
    const address = addressIn(entries[Math.max(0, entries.length - proxyHops)]!);
    if (address) return address;
  }
  return server?.requestIP(request)?.address;
}

/** The IP address an X-Forwarded-For entry holds; some proxies add a port, to IPv6 in brackets. */
function addressIn(entry: string): string | undefined {
  const trimmed = entry.trim();
  const address = /^\[([^\]]*)\](?::\d+)?$/.exec(trimmed)?.[1] ?? /^([\d.]+):\d+$/.exec(trimmed)?.[1] ?? trimmed;
  isIP ??= (import.meta.require("node:net") as typeof import("node:net")).isIP;
  return isIP(address) ? address : undefined;
}
