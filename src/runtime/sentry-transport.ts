// sentry-transport.ts: makes a Sentry transport fail, rather than succeed, when a response says the envelope never reached Sentry.

/**
 * The parts of a Sentry transport this reads, written out rather than imported: the browser bundles a newer
 * @sentry/core than the server's, and the two versions' envelope types do not unify.
 */
interface TransportResponse {
  statusCode?: number;
  headers?: { [name: string]: string | null };
}
interface Transport<E> {
  send(envelope: E): PromiseLike<TransportResponse>;
  flush(timeout?: number): PromiseLike<boolean>;
}

/**
 * Sentry's offline transports keep an envelope for later only when sending it throws; any response counts
 * as delivered. These responses do not mean Sentry has the envelope:
 * - none at all (`{}`): the SDK did not send it, because an earlier response's Retry-After or rate limit
 *   is still running, or its send buffer was full;
 * - 502, 503, 504: something in front of Sentry answered (the /monitoring tunnel while its upstream is
 *   down, a load balancer);
 * - 429 without X-Sentry-Rate-Limits: the tunnel's own "too busy". Sentry's 429 always carries that
 *   header, and an envelope it refused for quota stays refused.
 */
function isUndelivered({ statusCode, headers }: TransportResponse): boolean {
  if (statusCode === undefined) return true;
  if (statusCode === 429) return !headers?.["x-sentry-rate-limits"];
  return statusCode === 502 || statusCode === 503 || statusCode === 504;
}

class UndeliveredError extends Error {
  constructor(readonly statusCode: number | undefined) {
    super(
      `Sentry envelope not delivered: ${statusCode === undefined ? "not sent (rate limit or full buffer)" : `HTTP ${statusCode}`}`,
    );
    this.name = "UndeliveredError";
  }
}

/**
 * Wraps a transport factory so an undelivered response throws (and the offline transport keeps the
 * envelope), and tells `onDelivered` about every envelope that did get a response.
 */
export function failUndelivered<O, E, T extends Transport<E>>(
  make: (options: O) => T,
  onDelivered?: (envelope: E) => void,
): (options: O) => T {
  return (options) => {
    const inner = make(options);
    return {
      ...inner,
      async send(envelope: E) {
        const response = await inner.send(envelope);
        if (isUndelivered(response)) throw new UndeliveredError(response.statusCode);
        onDelivered?.(envelope);
        return response;
      },
      flush: (timeout?: number) => inner.flush(timeout),
    };
  };
}
