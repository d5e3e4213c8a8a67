// dev-reload.ts: development only: open pages reload when the code changes, and a broken build replaces every page.
import { Elysia } from "elysia";
import { DEV_EVENTS_PATH, devErrorPage, reloadScript } from "./dev-page.ts";

export interface DevFailure {
  title: string;
  /** Plain text: the compiler's message with file, line and a code frame. */
  detail: string;
}

export interface DevReload {
  /** Differs after every rebuild and every restart: a page that was served another version reloads. */
  readonly version: string;
  readonly failure: DevFailure | undefined;
  /** A good build is in place: pages reload to it. */
  ready(): void;
  /** The code does not build: pages reload to the error page until the next good build. */
  fail(failure: DevFailure): void;
  /** The server-sent event stream each page listens to. */
  events(signal: AbortSignal): Response;
  close(): void;
}

const encoder = new TextEncoder();

export function createDevReload({ heartbeatMs = 5_000 } = {}): DevReload {
  // A fresh start id per process: after `bun --watch` restarts us, every page sees a new version.
  const start = crypto.randomUUID().slice(0, 8);
  let generation = 0;
  let failure: DevFailure | undefined;
  const clients = new Set<{ send(chunk: string): void; end(): void }>();
  const version = () => `${start}.${generation}`;
  const publish = () => {
    generation++;
    for (const client of clients) client.send(`data: ${version()}\n\n`);
  };
  return {
    get version() {
      return version();
    },
    get failure() {
      return failure;
    },
    ready() {
      failure = undefined;
      publish();
    },
    fail(next) {
      failure = next;
      publish();
    },
    events(signal) {
      let end = () => {};
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const client = {
            send(chunk: string) {
              try {
                controller.enqueue(encoder.encode(chunk));
              } catch {
                end();
              }
            },
            end: () => end(),
          };
          // The heartbeat keeps proxies and idle timeouts from closing a quiet stream; should one still
          // close it, `retry` brings the page back within a tenth of a second.
          const beat = setInterval(() => client.send(": heartbeat\n\n"), heartbeatMs);
          end = () => {
            clearInterval(beat);
            clients.delete(client);
            try {
              controller.close();
            } catch {}
          };
          clients.add(client);
          signal.addEventListener("abort", end, { once: true });
          client.send(`retry: 100\ndata: ${version()}\n\n`);
        },
        cancel: () => end(),
      });
      return new Response(body, {
        headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" },
      });
    },
    close() {
      for (const client of [...clients]) client.end();
    },
  };
}

/** The script goes at the very end of an HTML page, under the page's CSP nonce, after React's last chunk. */
function withReloadScript(response: Response, version: string): Response {
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  const tag = `<script${nonce ? ` nonce="${nonce}"` : ""}>${reloadScript(version)}</script>`;
  const body = response.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ flush: (controller) => controller.enqueue(encoder.encode(tag)) }),
  );
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function wantsPage(pathname: string): boolean {
  return !pathname.startsWith("/__dev/") && !pathname.startsWith("/assets/");
}

/**
 * Use it before the app: `new Elysia().use(devReloadPlugin(reload)).use(createApp(…))`, so its global
 * response hook covers the app's routes. It works without an app too, when the app did not load.
 */
export function devReloadPlugin(reload: DevReload) {
  return new Elysia({ name: "brisk:dev-reload" })
    .get(DEV_EVENTS_PATH, ({ request, server }) => {
      // Bun would close a stream that stays quiet past idleTimeout; this one is meant to stay open.
      server?.timeout(request, 0);
      return reload.events(request.signal);
    })
    .onRequest(function showBuildFailure({ request }) {
      if (!reload.failure || !wantsPage(URL.parse(request.url)?.pathname ?? "/")) return;
      return new Response(devErrorPage(reload.failure, reload.version), {
        status: 500,
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
      });
    })
    .mapResponse({ as: "global" }, function injectReloadScript({ responseValue }) {
      if (!(responseValue instanceof Response) || !responseValue.body) return;
      if (!responseValue.headers.get("content-type")?.startsWith("text/html")) return;
      return withReloadScript(responseValue, reload.version);
    });
}
