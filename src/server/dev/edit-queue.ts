// edit-queue.ts: development only: saved files, handled in batches one at a time (an editor's save and a formatter
// right after it make one batch), and a way to wait until every save so far has been handled.
export interface EditQueue {
  /** Files saved (none: handle a batch all the same, as at start). */
  add(...files: string[]): void;
  /** Resolves once every file added so far has been handled. */
  settled(): Promise<void>;
}

export function createEditQueue(handle: (files: string[]) => Promise<void>, { debounceMs = 20 } = {}): EditQueue {
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The batch that is waiting for its debounce, and the chain of those already let go.
  let next: PromiseWithResolvers<void> | undefined;
  let chain = Promise.resolve();

  const flush = () => {
    const files = [...pending];
    const batch = next!;
    pending.clear();
    next = undefined;
    // The handler reports what does not build; anything it throws is a bug of its own, shown, and the
    // batches after it still run.
    chain = chain
      .then(() => handle(files))
      .catch((error: unknown) => console.error(error))
      .then(batch.resolve);
  };

  return {
    add(...files) {
      for (const file of files) pending.add(file);
      next ??= Promise.withResolvers<void>();
      clearTimeout(timer);
      timer = setTimeout(flush, debounceMs);
    },
    settled: () => next?.promise ?? chain,
  };
}
