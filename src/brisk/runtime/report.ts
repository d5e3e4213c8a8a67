// report.ts: how the browser's error UI hands errors to monitoring, without depending on it.
import { createContext } from "react";

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

/** The digest a server-side failure carries: on the error React rebuilt, or on Brisk's late server error. */
export function digestOf(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" ? digest : undefined;
}

export const ReporterContext = createContext<Reporter>(() => {});
