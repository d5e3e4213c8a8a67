// error-page.ts: what the exception page may show of an error caught in the browser: always a digest (the
// server's, or one made here that the report carries too), and, one rule on both sides, the message and
// stack only in development (showsErrorDetails, which the server's publicError uses too).
import type { ErrorPageProps } from "./fallback-pages.ts";
import type { ClientConfig } from "./page-payload.ts";
import { clientDigest } from "./report.ts";

export function showsErrorDetails(mode: ClientConfig["mode"]): boolean {
  return mode === "development";
}

export function clientErrorPageProps(error: unknown, host: string, mode: ClientConfig["mode"]): ErrorPageProps {
  const e = error as { side?: unknown; message?: unknown; stack?: unknown; serverStack?: unknown } | null;
  const props: ErrorPageProps = { side: e?.side === "server" ? "server" : "client", host, digest: clientDigest(error) };
  if (showsErrorDetails(mode)) {
    if (typeof e?.message === "string") props.message = e.message;
    props.stack = String(e?.serverStack ?? e?.stack ?? "");
  }
  return props;
}
