// context.ts: what one request did, gathered while it runs and logged once when it ends.
import { digestOf, newDigest, rememberDigest } from "./digest.ts";
import { requestPath } from "../http/host-check.ts";

/**
 * Where a server error happened: matching the path, the route's action or loader, rendering the page, a
 * streamed loader value, an API route or plugin (handler), or a stored page rendered again (prerender).
 */
export type Phase = "match" | "middleware" | "action" | "loader" | "render" | "deferred" | "handler" | "prerender";

export interface RecordedError {
  digest: string;
  phase: Phase;
  name: string;
  message: string;
  stack?: string;
}

export interface RequestRecord {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  readonly start: number;
  route?: string;
  errors: RecordedError[];
  /** Settles when a streamed response has rendered everything; the log line waits for it. */
  done?: Promise<unknown>;
  /**
   * The answer passes on another service's status (the tunnel, Sentry's): a 5xx then says that service is
   * down, while this server is fine, and its line is a warning.
   */
  relayed?: boolean;
}

export interface ErrorContext {
  digest: string;
  route?: string;
  requestId: string;
  phase: Phase;
  method: string;
  path: string;
}

/** Sends a server error to monitoring; Sentry when configured, nothing otherwise. */
export type CaptureError = (error: unknown, context: ErrorContext) => void;

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** `trustIncomingId`: behind a proxy we trust, its well-formed X-Request-Id keeps one id across hops. */
export function createRequestRecord(request: Request, trustIncomingId = false): RequestRecord {
  // Read from the URL itself: Elysia's own `path` misreads very short hosts (see host-check.ts).
  const path = requestPath(request.url);
  // A visitor's own id is never taken: it could pin a log line or a Sentry event on someone else's.
  const incoming = trustIncomingId ? request.headers.get("x-request-id") : null;
  return {
    id: incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID(),
    method: request.method,
    path,
    start: performance.now(),
    errors: [],
  };
}

const records = new WeakMap<Request, RequestRecord>();

/**
 * The record of a request, made on first use: every hook and handler of one request shares it. The request
 * log makes it first, in the request's first hook, saying whether an incoming request id is trusted.
 */
export function recordOf(request: Request, trustIncomingId = false): RequestRecord {
  let record = records.get(request);
  if (!record) records.set(request, (record = createRequestRecord(request, trustIncomingId)));
  return record;
}

/**
 * Gives an error its digest, records it for the request's log line and captures it, once.
 * An error that already has a digest (seen again by React after a loader reported it) is not re-sent.
 */
export function reportError(record: RequestRecord, error: unknown, phase: Phase, capture: CaptureError): string {
  const known = digestOf(error);
  if (known) return known;
  const digest = newDigest();
  rememberDigest(error, digest);
  const e = error instanceof Error ? error : new Error(String(error));
  record.errors.push({ digest, phase, name: e.name, message: e.message, stack: e.stack });
  capture(error, { digest, route: record.route, requestId: record.id, phase, method: record.method, path: record.path });
  return digest;
}
