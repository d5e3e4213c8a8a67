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

export const ReporterContext = createContext<Reporter>(() => {});
