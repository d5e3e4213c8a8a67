// invalidation-message.ts: an invalidation as pg-invalidations.ts stores it (a row) and announces it (a NOTIFY
// payload), and the checks that read them back: a payload on the channel may come from any client of the database.
import type { Invalidation } from "./invalidation.ts";

/** A NOTIFY payload must be shorter than 8000 bytes (PostgreSQL's default build). */
const MAX_PAYLOAD_BYTES = 7999;
/** What the database puts before the tail: `{"id":"` and a bigserial of at most 19 digits, then `"`. */
const HEAD_BYTES = '{"id":"'.length + 19 + 1;

export type InvalidationKind = "tags" | "paths";

/** The columns kind and names of an invalidation's row. */
export interface InvalidationRow {
  readonly kind: InvalidationKind;
  /** The names as a JSON array of strings. */
  readonly names: string;
}

/** What a notification says: the row's id, the instance that sent it and, when it fitted, the invalidation. */
export interface InvalidationMessage {
  readonly id: string;
  readonly origin: string;
  /** Absent when it was too big for a payload: the receiver reads the row. */
  readonly invalidation?: Invalidation;
}

export function toRow(invalidation: Invalidation): InvalidationRow {
  return "tags" in invalidation
    ? { kind: "tags", names: JSON.stringify(invalidation.tags) }
    : { kind: "paths", names: JSON.stringify(invalidation.paths) };
}

/**
 * The payload after its id, which the database prepends once the row has one (`{"id":"<id>"` + tail): the origin,
 * and the invalidation itself when the whole fits in a payload.
 */
export function payloadTail(origin: string, row: InvalidationRow): string {
  const fromOrigin = `,"origin":${JSON.stringify(origin)}`;
  const whole = `${fromOrigin},"${row.kind}":${row.names}}`;
  return HEAD_BYTES + Buffer.byteLength(whole) <= MAX_PAYLOAD_BYTES ? whole : `${fromOrigin}}`;
}

/** The message a payload carries, or undefined when it is not one of ours. */
export function parsePayload(payload: string): InvalidationMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { id, origin, tags, paths } = value as Record<string, unknown>;
  if (typeof id !== "string" || !/^\d+$/.test(id) || typeof origin !== "string") return undefined;
  if (tags === undefined && paths === undefined) return { id, origin };
  const invalidation = tags !== undefined ? toInvalidation("tags", tags) : toInvalidation("paths", paths);
  return invalidation && { id, origin, invalidation };
}

/** The invalidation a row holds, or undefined when its columns are not one. */
export function parseRow(kind: string, names: string): Invalidation | undefined {
  if (kind !== "tags" && kind !== "paths") return undefined;
  try {
    return toInvalidation(kind, JSON.parse(names));
  } catch {
    return undefined;
  }
}

function toInvalidation(kind: InvalidationKind, names: unknown): Invalidation | undefined {
  if (!Array.isArray(names) || !names.every((name) => typeof name === "string")) return undefined;
  return kind === "tags" ? { tags: names } : { paths: names };
}
