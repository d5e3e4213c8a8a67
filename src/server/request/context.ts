// context.ts: one request as every concern of the server knows it, made first by the request pipeline: its id and
// record (what its log line says), its cookies, and what the pages and the API keep of it. Elysia hands each hook
// the bare Request, so this is the one table from a Request to its context.
import type { Cookies } from "../../runtime/cookies.ts";
import { cookiesAsNow, createCookies, type CookieSettings } from "../cookies/cookies.ts";
import { digestOf, newDigest, rememberDigest } from "./digest.ts";
import { requestPath } from "./request-path.ts";

/**
 * Where a server error happened: matching the path, the route's action or loader, rendering the page, a
 * streamed loader value, an API route or plugin (handler), or a prerendered page rendered again (prerender).
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
   * The response passes on another service's status (the tunnel, Sentry's): a 5xx then says that service is
   * down, while this server is fine, and its line is a warning.
   */
  relayed?: boolean;
  /** The server turned it away for want of a place to render it (a 503 it chose): its line is a warning. */
  shed?: boolean;
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

/** What the server tells the context of each request it makes: the same for every request of one server. */
export interface ContextOptions {
  /** Behind a proxy we trust, its well-formed X-Request-Id keeps one id across hops. */
  readonly trustIncomingId?: boolean;
  /** The app's cookie settings: without them the request has no cookie jar (a test's bare request). */
  readonly cookies?: CookieSettings;
}

export interface RequestContext extends RequestRecord {
  readonly request: Request;
  readonly options: ContextOptions;
  /** The page the URL asks for, parsed once: pages/page-target.ts's own record, whose shape nothing here reads. */
  target?: object;
  /** Its cookie jar, made when first read (cookiesOf): one for the pages and API routes of the request. */
  jar?: Cookies;
  /** An API route's middleware chain under way: api-chain.ts's own record, whose shape nothing here reads. */
  apiChain?: object;
  /**
   * What of the visitor's request a page's middleware, loaders or action read first (its cookies, its headers, the
   * request itself): an answer that may depend on it is never kept for another visitor (cache/answer-capture.ts).
   */
  visitorRead?: string;
}

export function createRequestContext(request: Request, options: ContextOptions = {}): RequestContext {
  // Read from the URL itself: Elysia's own `path` misreads very short hosts (see host-check.ts).
  const path = requestPath(request.url);
  // A visitor's own id is never taken: it could pin a log line or a Sentry event on someone else's.
  const incoming = options.trustIncomingId ? request.headers.get("x-request-id") : null;
  return {
    request,
    options,
    id: incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID(),
    method: request.method,
    path,
    start: performance.now(),
    errors: [],
  };
}

const contexts = new WeakMap<Request, RequestContext>();

/**
 * The context of a request, made on first use with the server's options: every hook and handler of one request
 * shares it. The request pipeline makes it first (pipeline.ts); a bare request (a test's, the bench's) makes its own.
 */
export function contextOf(request: Request, options?: ContextOptions): RequestContext {
  let context = contexts.get(request);
  if (!context) contexts.set(request, (context = createRequestContext(request, options)));
  return context;
}

/**
 * The request's cookies: `get`/`getSigned` read the visitor's, `set`/`setSigned`/`delete` reach the response (the
 * pages and the API put `jar.setCookieHeaders()` on it). Undefined for a request no Brisk server made.
 */
export function cookiesOf(context: RequestContext, settings = context.options.cookies): Cookies | undefined {
  if (!settings) return undefined;
  context.jar ??= createCookies(context.request.headers.get("cookie"), settings, context.request.method, () => {
    context.visitorRead ??= "cookies (or the session)";
  });
  return context.jar;
}

/**
 * What puts the request's cookies back as they are now, every change made after dropped: a middleware that throws
 * after `next()` answers without what was set inside it. A session opened on the jar of then is read again.
 */
export function cookiesCheckpoint(context: RequestContext): () => void {
  const jar = context.jar && cookiesAsNow(context.jar);
  return () => void (context.jar = jar?.());
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
  capture(error, {
    digest,
    route: record.route,
    requestId: record.id,
    phase,
    method: record.method,
    path: record.path,
  });
  return digest;
}
