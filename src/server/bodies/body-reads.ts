// body-reads.ts: the one pool of body reads that form actions and API routes share, with its limits: bytes,
// a pace, slots, and each visitor's share of the slots.
import { readActionBody, type BodyRead } from "./body.ts";
import { createAdmission } from "./admission.ts";
import type { BodyPace } from "./request-body.ts";

/** Bodies being read at once: they hold at most this × ACTION_MAX_BYTES (64 MiB with the default 1 MiB). */
export const BODY_READS_AT_ONCE = 64;

export const TOO_MANY_UPLOADS = "too many request bodies being read at once; try again";

export interface BodyReads {
  /**
   * The body read and parsed (or refused: 400, 408, 413, 415); undefined, the body unread, when no slot is
   * free for its visitor: 429. A 408 leaves the visitor one slot at a time for a while (admission.ts), as
   * does a body that yields its slot to another visitor's post (a 408 too).
   */
  read(request: Request): Promise<BodyRead | undefined>;
}

export interface BodyReadLimits {
  /** ACTION_MAX_BYTES */
  maxBytes: number;
  /** BODY_TIMEOUT_MS, BODY_MIN_RATE, BODY_RATE_GRACE_MS */
  pace: BodyPace;
  /** The visitor's address, whose share of the slots a read takes: asked only once a share could be full. */
  clientOf(request: Request): string | undefined;
}

export function createBodyReads({ maxBytes, pace, clientOf }: BodyReadLimits): BodyReads {
  const admission = createAdmission(BODY_READS_AT_ONCE);
  return {
    read: (request) =>
      admission.run(
        () => clientOf(request),
        async (slot) => {
          const body = await readActionBody(request, { maxBytes, pace, watch: slot });
          if (!body.ok && body.status === 408) slot.fellBehind();
          return body;
        },
      ),
  };
}
