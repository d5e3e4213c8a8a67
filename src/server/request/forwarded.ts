// forwarded.ts: who a request comes from: the socket's address, or behind TRUST_PROXY the address the
// proxy nearest the visitor saw, and the key a visitor's share is counted by. Everything that reads a visitor's
// address asks here: each visitor's share of the body reads, the renders and the tunnel, the X-Forwarded-For the
// tunnel passes to Sentry, and Sentry's events.
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

/**
 * A visitor holds at most 1/CLIENT_SHARE of a pool (the body reads, the renders): it takes this many visitors to hold
 * them all.
 */
export const CLIENT_SHARE = 8;

/**
 * Who a share belongs to: an IPv4 address, or an IPv6 address's /64, the block a single host or home is
 * given (one attacker could otherwise take a fresh address per connection). An IPv4-mapped IPv6 address is
 * its IPv4 address.
 */
export function clientKey(address: string | undefined): string {
  if (!address?.includes(":")) return address ?? "";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...front, ...Array<string>(8 - front.length - back.length).fill("0"), ...back]
    : front;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
