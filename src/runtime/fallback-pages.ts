// fallback-pages.ts: the pages an app (and a route, for what fails below it) shows instead of a route: for each
// outcome, for an exception, and for code that never loaded.
import type { ComponentType } from "react";
import type { PageError } from "./page-payload.ts";

/** What the exception page is told: the host the visitor asked for, and the public part of the error. */
export interface ErrorPageProps extends Omit<PageError, "digest"> {
  host: string;
  /** Absent only for a client-side failure that has none. */
  digest?: string;
}

/** What the bad-request page is told: which search parameter the route's schema refused, and why. */
export interface BadRequestPageProps {
  /** `sort: expected "new" or "old"`: the field's name, then what it takes. */
  message: string;
}

/** The pages shown instead of a route: for each outcome, for an exception, and for code that never loaded. */
export interface Fallbacks {
  "not-found": ComponentType;
  forbidden: ComponentType;
  unauthorized: ComponentType;
  /** A search the route's schema refuses (status 400). Optional: Brisk shows a plain page with the message without it. */
  "bad-request"?: ComponentType<BadRequestPageProps>;
  /** The exception page, in its server-side and client-side forms (`side`). It must render without JavaScript. */
  error: ComponentType<ErrorPageProps>;
  /** A page whose code or stylesheet could not be loaded, even after a retry and a reload. */
  "load-failed": ComponentType;
}
