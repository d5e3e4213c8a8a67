// trace-names.ts: how both sides name a transaction: after its route pattern, one name for every unmatched path.

/** @sentry/conventions' name of the attribute that becomes a transaction's `transaction_info.source`. */
export const NAME_SOURCE = "sentry.segment.name.source";

/** Unmatched paths share one name: a transaction per scanned URL would be noise, and a high-cardinality name. */
export const UNMATCHED_ROUTE = "/*";

/**
 * A server transaction's name, and the `transaction` of the error events it answers: the method and the route
 * pattern (`GET /examples/guestbook/:id`), one name whether a document, page data or a form post reached it.
 */
export function transactionName(method: string, route: string | undefined): string {
  return `${method} ${route ?? UNMATCHED_ROUTE}`;
}
