// report.ts: how the browser's error UI hands errors to monitoring, without depending on it.
import { createContext } from "react";

export interface ErrorReport {
  error: unknown;
  digest?: string;
  componentStack?: string;
  /** Where React or Brisk caught it. */
  mechanism: "boundary" | "chunk-load" | "navigation";
  level?: "error" | "warning";
}

export type Reporter = (report: ErrorReport) => void;

export const ReporterContext = createContext<Reporter>(() => {});
