// answer-capture.ts: a cached route's rendered answer copied as it streams to the visitor, and kept once it has all
// gone out, but only if nothing of it can be the visitor's own: its middleware and loaders read no cookie, session
// or request header, it sets no cookie, it answers 200 or 404 without an error, and no invalidation came while it
// rendered. Otherwise the copy is dropped and the visitor's answer is all there was. Cache-Control is not read: it
// speaks to browsers and shared caches (a not-found page says no-store to them), the route's `cache` to this one.
import type { Logger } from "../monitoring/logger.ts";
import type { RequestContext } from "../request/context.ts";
import type { PageTarget } from "../pages/page-target.ts";
import type { CachePolicy } from "./cache-policy.ts";
import type { Render, RenderCache } from "./render-cache.ts";
import { answerBytes, storedData, storedDocument, type StoredAnswer } from "./stored-answer.ts";

/** What a capture needs of the server. */
export interface CaptureDeps {
  readonly cache: RenderCache;
  readonly log: Logger;
  /** Development keeps nothing (its code changes under it) but still warns of a cached route that reads the visitor. */
  readonly keeps: boolean;
  /** The routes a development server has warned of: once each. */
  readonly warned: Set<string>;
}

/** One answer being captured. */
export interface Capture {
  readonly key: string;
  readonly policy: CachePolicy;
  readonly target: PageTarget;
  readonly context: RequestContext;
  /** The render, begun before its middleware ran: an invalidation meanwhile spoils it. */
  readonly render: Render;
}

const KEPT_STATUSES = new Set([200, 404]);
const NONCE = /'nonce-([A-Za-z0-9+/]{22}==)'/;

/** Why the answer cannot be kept whatever its body, or undefined. */
function refusal({ context }: Capture, response: Response): string | undefined {
  if (context.visitorRead) return `its middleware or loaders read ${context.visitorRead}`;
  if (!KEPT_STATUSES.has(response.status)) return `it answered ${response.status}`;
  if (response.headers.has("set-cookie")) return "it sets a cookie";
  if (!response.body) return "it has no body";
  // Kept bytes are the page as rendered, encoded per response: one already encoded is not read as a page.
  if (response.headers.has("content-encoding")) return "it was answered encoded";
  return undefined;
}

function warnOnce(capture: Capture, why: string, { warned, log }: CaptureDeps): void {
  const route = capture.context.route ?? capture.target.url.pathname;
  if (warned.has(route) || !capture.context.visitorRead) return;
  warned.add(route);
  log({ level: "warn", msg: `route ${route} is cached, but ${why}: such answers are never kept`, route });
}

function answerOf(capture: Capture, response: Response, chunks: readonly Uint8Array[]): StoredAnswer | undefined {
  const bytes = Bun.concatArrayBuffers([...chunks], Infinity, true);
  if (capture.target.isData) return storedData(bytes, response.status, response.headers);
  const nonce = NONCE.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  return nonce ? storedDocument(new TextDecoder().decode(bytes), nonce, response.status, response.headers) : undefined;
}

/** The URL lengths a kept answer may have: a longer one (an 8 KB path, a search as long) is rendered each time. */
const MAX_KEPT_URL = 4096;

function keep(capture: Capture, response: Response, chunks: readonly Uint8Array[], { cache }: CaptureDeps): void {
  const { context, policy, target, key, render } = capture;
  // A late streamed value that failed, or a visitor whose cookie a late value read: decided now, at the end.
  const answer =
    context.errors.length === 0 && !context.visitorRead && !context.request.signal.aborted
      ? answerOf(capture, response, chunks)
      : undefined;
  if (!answer) return cache.end(render);
  const storedAt = Date.now();
  cache.keep(
    {
      key,
      path: render.path,
      tags: policy.tags,
      storedAt,
      freshUntil: storedAt + policy.maxAge,
      staleUntil: storedAt + policy.maxAge + policy.staleWhileRevalidate,
      href: context.request.url,
      answer,
      bytes: answerBytes(answer),
    },
    render,
  );
}

/** Keeps the copy, if it may be: never a reason to fail the server, whose visitor has had the answer already. */
function keepLater(capture: Capture, response: Response, chunks: readonly Uint8Array[], deps: CaptureDeps): void {
  setImmediate(() => {
    try {
      keep(capture, response, chunks, deps);
    } catch (error) {
      deps.cache.end(capture.render);
      deps.log({
        level: "error",
        msg: "could not keep a rendered answer",
        path: capture.target.url.pathname,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  });
}

/**
 * The response, its body copied on its way to the visitor: kept in the cache when it has ended, if it may be.
 * The copy stops at what one entry may take, and goes with the visitor's stream if it is cancelled.
 */
export function captured(capture: Capture, response: Response, deps: CaptureDeps): Response {
  const why =
    capture.context.request.url.length > MAX_KEPT_URL ? "its URL is too long to keep" : refusal(capture, response);
  if (why || !deps.keeps) {
    deps.cache.end(capture.render);
    if (why && !deps.keeps) warnOnce(capture, why, deps);
    return response;
  }
  const reader = response.body!.getReader();
  let chunks: Uint8Array[] | undefined = [];
  let reserved = 0;
  /** The copy given up: the answer goes on to the visitor, and is not kept. */
  const giveUp = () => {
    chunks = undefined;
    deps.cache.releaseCopy(reserved);
    reserved = 0;
    deps.cache.end(capture.render);
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const read = await reader.read().catch((error: unknown) => {
          giveUp();
          throw error;
        });
        if (read.done) {
          controller.close();
          const kept = chunks;
          deps.cache.releaseCopy(reserved);
          chunks = undefined;
          // After the last bytes have gone: compressing the copy should not hold them back.
          if (kept) keepLater(capture, response, kept, deps);
          return;
        }
        const { value } = read;
        // A copy (a renderer may write its next chunk into the same memory), within what one entry may take and
        // what all copies under way may take together.
        if (chunks && reserved + value.length <= deps.cache.maxEntryBytes && deps.cache.reserveCopy(value.length)) {
          reserved += value.length;
          chunks.push(value.slice());
        } else if (chunks) giveUp();
        controller.enqueue(value);
      },
      cancel(reason) {
        if (chunks) giveUp();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const headers = new Headers(response.headers);
  headers.set("x-cache", "miss");
  return new Response(body, { status: response.status, headers });
}
