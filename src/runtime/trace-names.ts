// trace-names.ts: how both sides name a transaction: after its route pattern, one name for every unmatched path.

/** @sentry/conventions' name of the attribute that becomes a transaction's `transaction_info.source`. */
export const NAME_SOURCE = "sentry.segment.name.source";

/** Unmatched paths share one name: a transaction per scanned URL would be noise, and a high-cardinality name. */
export const UNMATCHED_ROUTE = "/*";
