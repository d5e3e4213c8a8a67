// retry-import.ts: a dynamic import that, once it failed, can be asked again in any browser.
//
// Browsers disagree on what a failed `import()` leaves behind. The HTML spec long stored a failed fetch in the
// document's module map, so every later import of that URL failed at once, without a request: Chromium did so
// up to 150 (Debian's 150.0.7871.100 still does). Newer Chromium (156 here) forgets the failure and fetches
// again. So a retry imports the same URL first, which keeps one instance of the module where the browser
// asks again, and when that fails, the module under a URL of its own (a query the server ignores), which
// asks the server on both. Only the failed module gets the new URL: the modules it imports keep theirs, so
// React and every other shared module stay one instance.

/** Chromium and Firefox name the module in the error's message; Safari does not. */
export function failedModuleUrl(error: unknown): string | undefined {
  return /https?:\/\/\S+/.exec(String((error as Error | null)?.message ?? ""))?.[0];
}

function retryUrl(url: string, attempt: number): string {
  const fresh = new URL(url);
  fresh.searchParams.set("retry", String(attempt));
  return fresh.href;
}

/**
 * `load` once it succeeded; until then every call tries again. The first call runs `load` (the bundler's
 * literal `import()`); a later one runs it again and, if it fails, imports the module the failure named
 * under a query of its own.
 */
export function retryingImport<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  let retries = 0;
  const retry = (error: unknown) => {
    const url = failedModuleUrl(error);
    if (url === undefined) throw error;
    return import(/* @vite-ignore */ retryUrl(url, retries)) as Promise<T>;
  };
  return () =>
    (pending ??= (retries === 0 ? load() : load().catch(retry)).catch((error: unknown) => {
      pending = undefined;
      retries++;
      throw error;
    }));
}
