// sentry.ts: server-side error monitoring with @sentry/bun, on only when SENTRY_DSN is set.
import * as Sentry from "@sentry/bun";
import type { Config } from "./config.ts";
import type { CaptureError } from "./request-record.ts";

export interface ServerMonitoring {
  capture: CaptureError;
  flush(timeoutMs: number): Promise<boolean>;
}

export function initServerSentry(config: Config, release: string): ServerMonitoring | undefined {
  if (!config.sentryDsn) return undefined;
  Sentry.init({
    dsn: config.sentryDsn,
    environment: config.sentryEnvironment,
    release,
    // No tracesSampleRate unless configured: even 0 loads the tracing integrations.
    ...(config.sentryTracesSampleRate === undefined ? {} : { tracesSampleRate: config.sentryTracesSampleRate }),
  });
  return {
    capture(error, { digest, route, requestId, phase, method, path }) {
      Sentry.withScope((scope) => {
        scope.setTags({ digest, phase, ...(route ? { route } : {}) });
        scope.setContext("request", { requestId, method, path });
        Sentry.captureException(error);
      });
    },
    flush: (timeoutMs) => Sentry.flush(timeoutMs),
  };
}
