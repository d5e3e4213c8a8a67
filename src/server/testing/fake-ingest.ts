// fake-ingest.ts (brisk/test): a local stand-in for Sentry's ingest that records what it receives.
//
//   const ingest = await startFakeIngest();
//   Sentry.init({ dsn: ingest.dsn() });            // http://publickey@127.0.0.1:<port>/42
//   ...
//   await ingest.waitFor(1);
//   expect(ingest.events()[0]?.tags?.digest).toBe("d-abc");
//   await ingest.stop();
//
// Every request is recorded (path, query, headers, raw bytes), whatever the mode. Modes:
//   "up"      200 `{}` (the default)
//   "slow"    answers 200 `{}` after `delayMs`, or never (until stop) without it
//   "status"  answers with any status, headers and body: a 429 with Retry-After and
//             X-Sentry-Rate-Limits, a 302 with Location, Set-Cookie, Strict-Transport-Security…
//   "down"    closes the listener, so the port refuses connections; "up" again reopens it
import { parseEnvelope } from "@sentry/core";
import type { Envelope, Event } from "@sentry/core";
import type { Server } from "bun";

export interface ReceivedRequest {
  readonly method: string;
  /** Path without the query, e.g. `/api/42/envelope/`. */
  readonly path: string;
  /** Query with its leading `?`, or "". */
  readonly search: string;
  readonly headers: Headers;
  readonly body: Uint8Array;
  /** The body decoded as UTF-8, for assertions on text envelopes. */
  readonly text: string;
}

export interface StatusReply {
  readonly status: number;
  readonly headers?: HeadersInit;
  readonly body?: string;
}

export interface FakeIngest {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** A DSN pointing here; `pathPrefix` gives a self-hosted style DSN (`/prefix/42`). */
  dsn(projectId?: string, key?: string, pathPrefix?: string): string;
  readonly received: ReceivedRequest[];
  setMode(mode: "up" | "down"): Promise<void>;
  setMode(mode: "slow", options?: { delayMs?: number }): Promise<void>;
  setMode(mode: "status", reply: StatusReply): Promise<void>;
  /** Every received body that parses as an envelope, in arrival order. */
  envelopes(): Envelope[];
  /** The payloads of all `event` items received, in arrival order. */
  events(): Event[];
  /** The payloads of all items of one type (`transaction`, `sessions`…), in arrival order. */
  items(type: string): unknown[];
  /** Forgets what was received and goes back to "up". */
  reset(): Promise<void>;
  /**
   * Resolves once `count` requests have arrived, or `condition` holds (say `() => events().length >= 2`),
   * checked as each one arrives; rejects after `timeoutMs`.
   */
  waitFor(until: number | (() => boolean), timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

type Mode =
  | { readonly kind: "up" }
  | { readonly kind: "slow"; readonly delayMs?: number }
  | { readonly kind: "status"; readonly reply: StatusReply };

const decoder = new TextDecoder();

function okReply(): Response {
  return new Response("{}", { headers: { "content-type": "application/json" } });
}

export async function startFakeIngest(options: { port?: number } = {}): Promise<FakeIngest> {
  const ingest: IngestState = {
    received: [],
    arrivals: new Set(),
    mode: { kind: "up" },
    held: new Set(),
    server: undefined,
    port: 0,
  };
  ingest.server = listen(ingest, options.port ?? 0);
  const port = (ingest.port = ingest.server.port!);
  const { received } = ingest;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    dsn: (projectId = "42", key = "publickey", pathPrefix = "") =>
      `http://${key}@127.0.0.1:${port}${pathPrefix ? `/${pathPrefix}` : ""}/${projectId}`,
    setMode: (kind: ModeName, arg?: ModeOptions) => setMode(ingest, kind, arg),
    reset() {
      received.length = 0;
      return setMode(ingest, "up");
    },
    envelopes: () => envelopes(received),
    events: () => items(received, "event") as Event[],
    items: (type) => items(received, type),
    waitFor: (until, timeoutMs = 2_000) => waitFor(ingest, until, timeoutMs),
    stop: () => close(ingest),
  };
}

/** What the listener and the test's calls share. */
interface IngestState {
  readonly received: ReceivedRequest[];
  /** The checks of pending waitFor calls, run on each arrival. */
  readonly arrivals: Set<() => void>;
  mode: Mode;
  /** Responses held back by "slow" mode; stop() releases them so the server can close. */
  readonly held: Set<() => void>;
  /** The listener; none while "down". */
  server: Server<undefined> | undefined;
  /** The port it listens on, kept for "up" after "down". */
  port: number;
}

type ModeName = Mode["kind"] | "down";
type ModeOptions = { delayMs?: number } | StatusReply;

function listen(ingest: IngestState, port: number): Server<undefined> {
  return Bun.serve({ hostname: "127.0.0.1", port, fetch: (request) => respond(ingest, request) });
}

async function respond(ingest: IngestState, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = new Uint8Array(await request.arrayBuffer());
  ingest.received.push({
    method: request.method,
    path: url.pathname,
    search: url.search,
    headers: new Headers(request.headers),
    body,
    text: decoder.decode(body),
  });
  for (const check of [...ingest.arrivals]) check();
  const { mode } = ingest;
  if (mode.kind === "slow") return hold(ingest, mode.delayMs);
  if (mode.kind === "status") {
    const { status, headers, body: replyBody } = mode.reply;
    return new Response(replyBody ?? null, { status, headers });
  }
  return okReply();
}

function hold(ingest: IngestState, delayMs: number | undefined): Promise<Response> {
  return new Promise((resolve) => {
    const release = () => {
      ingest.held.delete(release);
      clearTimeout(timer);
      resolve(okReply());
    };
    const timer = delayMs === undefined ? undefined : setTimeout(release, delayMs);
    ingest.held.add(release);
  });
}

async function close(ingest: IngestState): Promise<void> {
  for (const release of [...ingest.held]) release();
  await ingest.server?.stop(true);
  ingest.server = undefined;
}

async function setMode(ingest: IngestState, kind: ModeName, arg?: ModeOptions): Promise<void> {
  if (kind === "down") return close(ingest);
  if (kind === "status") ingest.mode = { kind, reply: arg as StatusReply };
  else if (kind === "slow") ingest.mode = { kind, delayMs: (arg as { delayMs?: number } | undefined)?.delayMs };
  else ingest.mode = { kind };
  ingest.server ??= listen(ingest, ingest.port);
}

function envelopes(received: ReceivedRequest[]): Envelope[] {
  const parsed: Envelope[] = [];
  for (const { body } of received) {
    try {
      parsed.push(parseEnvelope(body));
    } catch {
      // Not an envelope (a test sent raw bytes): nothing to report.
    }
  }
  return parsed;
}

function items(received: ReceivedRequest[], type: string): unknown[] {
  return envelopes(received).flatMap(([, all]) =>
    (all as Array<[{ type: string }, unknown]>).flatMap(([header, payload]) => (header.type === type ? [payload] : [])),
  );
}

function waitFor(ingest: IngestState, until: number | (() => boolean), timeoutMs: number): Promise<void> {
  const { received, arrivals } = ingest;
  const done = typeof until === "number" ? () => received.length >= until : until;
  if (done()) return Promise.resolve();
  const expected = typeof until === "number" ? `${until} requests` : "the requests waited for";
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (!done()) return;
      clearTimeout(timer);
      arrivals.delete(check);
      resolve();
    };
    const timer = setTimeout(() => {
      arrivals.delete(check);
      reject(new Error(`fake ingest: expected ${expected} within ${timeoutMs} ms, got ${received.length}`));
    }, timeoutMs);
    arrivals.add(check);
  });
}
