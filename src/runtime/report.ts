// report.ts: how the browser's error UI hands errors to monitoring, without depending on it.
import { createContext } from "react";
import { newDigest } from "./new-digest.ts";

export interface ErrorReport {
  error: unknown;
  digest?: string;
  componentStack?: string;
  /**
   * Where React or Brisk caught it: the page's error boundary, a failed route load or navigation,
   * hydrateRoot's callbacks (uncaught, caught by another boundary, recovered), or a window error event.
   */
  mechanism: "boundary" | "chunk-load" | "navigation" | "uncaught" | "caught" | "recoverable" | "global";
  level?: "error" | "warning";
}

export type Reporter = (report: ErrorReport) => void;

/** A report kept in localStorage by a page whose Sentry chunk never loaded; the next page with Sentry sends it. */
export interface UnsentReport extends Omit<ErrorReport, "error" | "componentStack"> {
  name: string;
  message: string;
  stack?: string;
  /** The page it happened on, and when (epoch milliseconds). */
  url: string;
  time: number;
}

/** The digest a server-side failure carries: on the error React rebuilt, or on Brisk's late server error. */
export function ownDigest(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" ? digest : undefined;
}

const CLIENT_DIGESTS = new WeakMap<object, string>();

/**
 * The digest a failure's error page shows and its report carries: the server's, or for a failure of the
 * browser's own, one made here, the same each time it is asked for the same error object.
 */
export function clientDigest(error: unknown): string {
  const known = ownDigest(error);
  if (known) return known;
  if (typeof error !== "object" || error === null) return newDigest();
  let digest = CLIENT_DIGESTS.get(error);
  if (!digest) CLIENT_DIGESTS.set(error, (digest = newDigest()));
  return digest;
}

export const ReporterContext = createContext<Reporter>(() => {});
