// Await.tsx: a streamed value's section with an error fallback of its own, React Router's <Await>. A value that
// fails shows its errorElement there, with the digest, while the rest of the page stays; without one, or for an
// outcome (a streamed notFound()), the failure reaches the page's boundary as a `use()` of the value's would.
import { createContext, use, useContext, useEffect, type ReactNode } from "react";
import { isOutcome } from "./outcome.ts";
import { clientDigest, ownDigest, ReporterContext } from "./report.ts";

export interface AwaitProps<T> {
  /** The promise: a streamed value of `useLoaderData()`, or any other. */
  resolve: Promise<T>;
  /** Shown in the value's place when it fails; read the failure with `useAsyncError()`. */
  errorElement?: ReactNode;
  /** Renders the value once it has arrived. */
  children: (value: T) => ReactNode;
}

/** What an `errorElement` is told of the failure it stands in for. */
export interface AsyncError {
  /** What the value failed with: a loader's error keeps its message and stack only in development. */
  error: unknown;
  /** The digest of the failure, as the error page shows it: the server's (its log line and Sentry event carry it), or one made in the browser and reported there. */
  digest: string;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
/** The fields React (and Brisk's streamed values) mark a settled promise with, for `use()` to read it at once. */
type Marks<T> = { status?: "pending" | "fulfilled" | "rejected"; value?: T; reason?: unknown };

const AsyncErrorContext = createContext<AsyncError | undefined>(undefined);
const settledOf = new WeakMap<Promise<unknown>, Promise<Settled<unknown>>>();

/**
 * The promise as one that never rejects, the same one for every render (use() needs that). Marked settled when the
 * promise is, as React marks those it has read: use() reads it at once, so hydration renders what the server did.
 */
function settled<T>(promise: Promise<T>): Promise<Settled<T>> {
  let found = settledOf.get(promise) as Promise<Settled<T>> | undefined;
  if (!found) {
    found = promise.then(
      (value): Settled<T> => ({ ok: true, value }),
      (error: unknown): Settled<T> => ({ ok: false, error }),
    );
    const { status, value, reason } = promise as Marks<T>;
    if (status === "fulfilled") Object.assign(found, { status, value: { ok: true, value } });
    if (status === "rejected") Object.assign(found, { status: "fulfilled", value: { ok: false, error: reason } });
    settledOf.set(promise, found);
  }
  return found;
}

function Failed({ error, children }: { error: unknown; children: ReactNode }) {
  const report = useContext(ReporterContext);
  const digest = clientDigest(error);
  // The server reported its own failures; one of the browser's (a value the stream never brought) is reported here.
  useEffect(() => {
    if (!ownDigest(error)) report({ error, digest, mechanism: "caught" });
  }, [report, error, digest]);
  return <AsyncErrorContext value={{ error, digest }}>{children}</AsyncErrorContext>;
}

/** `<Await resolve={promise} errorElement={…}>{(value) => …}</Await>`, inside a `<Suspense>` that shows while it waits. */
export function Await<T>({ resolve, errorElement, children }: AwaitProps<T>): ReactNode {
  const result = use(settled(resolve));
  if (result.ok) return children(result.value);
  if (errorElement === undefined || isOutcome(result.error)) throw result.error;
  return <Failed error={result.error}>{errorElement}</Failed>;
}

/** In an `<Await>`'s `errorElement`: the failure it stands in for, and its digest. */
export function useAsyncError(): AsyncError {
  const failure = useContext(AsyncErrorContext);
  if (!failure) throw new Error("useAsyncError() is for the errorElement of an <Await>");
  return failure;
}
