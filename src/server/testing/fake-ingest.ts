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
  const received: ReceivedRequest[] = [];
  /** The checks of pending waitFor calls, run on each arrival. */
  const arrivals = new Set<() => void>();
  let mode: Mode = { kind: "up" };
  // Responses held back by "slow" mode; stop() releases them so the server can close.
  const held = new Set<() => void>();
  let server: Server<undefined> | undefined;

  function hold(delayMs: number | undefined): Promise<Response> {
    return new Promise((resolve) => {
      const release = () => {
        held.delete(release);
        clearTimeout(timer);
        resolve(okReply());
      };
      const timer = delayMs === undefined ? undefined : setTimeout(release, delayMs);
      held.add(release);
    });
  }

  async function respond(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const body = new Uint8Array(await request.arrayBuffer());
    received.push({
      method: request.method,
      path: url.pathname,
      search: url.search,
      headers: new Headers(request.headers),
      body,
      text: decoder.decode(body),
    });
    for (const check of [...arrivals]) check();
    if (mode.kind === "slow") return hold(mode.delayMs);
    if (mode.kind === "status") {
      const { status, headers, body: replyBody } = mode.reply;
      return new Response(replyBody ?? null, { status, headers });
    }
    return okReply();
  }

  function listen(port: number): Server<undefined> {
    return Bun.serve({ hostname: "127.0.0.1", port, fetch: respond });
  }

  async function close(): Promise<void> {
    for (const release of [...held]) release();
    await server?.stop(true);
    server = undefined;
  }

  server = listen(options.port ?? 0);
  const port = server.port!;
  const url = `http://127.0.0.1:${port}`;

  function envelopes(): Envelope[] {
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

  function items(type: string): unknown[] {
    return envelopes().flatMap(([, all]) => (all as Array<[{ type: string }, unknown]>).flatMap(([header, payload]) => (header.type === type ? [payload] : [])));
  }

  async function setMode(kind: "up" | "slow" | "status" | "down", arg?: { delayMs?: number } | StatusReply) {
    if (kind === "down") return close();
    if (kind === "status") mode = { kind, reply: arg as StatusReply };
    else if (kind === "slow") mode = { kind, delayMs: (arg as { delayMs?: number } | undefined)?.delayMs };
    else mode = { kind };
    server ??= listen(port);
  }

  return {
    url,
    port,
    received,
    dsn: (projectId = "42", key = "publickey", pathPrefix = "") =>
      `http://${key}@127.0.0.1:${port}${pathPrefix ? `/${pathPrefix}` : ""}/${projectId}`,
    setMode,
    reset() {
      received.length = 0;
      return setMode("up");
    },
    envelopes,
    events: () => items("event") as Event[],
    items,
    waitFor(until, timeoutMs = 2_000) {
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
    },
    stop: close,
  };
}
