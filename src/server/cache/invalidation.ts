// invalidation.ts: what drops kept answers from a render cache (revalidateTag, revalidatePath), and the two sides
// that carry it: the cache of this process, and the bus that tells the other instances.

/** The answers to drop: every one kept under any of these tags, or of any of these paths (whatever its search). */
export type Invalidation = { readonly tags: readonly string[] } | { readonly paths: readonly string[] };

/** A render cache as an invalidation reaches it. */
export interface RenderCacheControl {
  /** Drops the answers an invalidation names, in this process only. */
  apply(invalidation: Invalidation): void;
  /** Drops every answer: after a gap in which another instance's invalidations may have been missed. */
  clear(): void;
}

/** Carries invalidations to the other instances sharing a database. */
export interface InvalidationBus {
  /** Tells every other instance; resolves once the database has it. */
  publish(invalidation: Invalidation): Promise<void>;
  close(): Promise<void>;
}
