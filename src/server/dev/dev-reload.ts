// dev-reload.ts: development only: open pages hear of every change (reload, new stylesheets), and a broken build
// replaces every page.
import { Elysia } from "elysia";
import { DEV_EVENTS_PATH, DEV_PAGE_HEADERS, devErrorPage, reloadScript, type DevState } from "./dev-page.ts";

export interface DevFailure {
  title: string;
  /** Plain text: the compiler's message with file, line and a code frame. */
  detail: string;
}

export interface DevReload {
  /** What pages are served with, and what each event announces. */
  readonly state: DevState;
  readonly failure: DevFailure | undefined;
  /**
   * A good build is in place. `reload`: open pages must load it (the edit changed code the browser's hot
   * updates do not carry). `styles`: stylesheet URL → its new build, for the pages to swap.
   */
  ready(change?: { reload?: boolean; styles?: Record<string, string> }): void;
  /**
   * The code does not build: new requests get the error page until the next good build. `reload`: open
   * pages reload to it too (the browser does not show this error by itself).
   */
  fail(failure: DevFailure, change?: { reload?: boolean }): void;
  /** An event that changes nothing here: error pages reload, since what they show was fixed elsewhere (Bun's client build). */
  nudge(): void;
  /** The server-sent event stream each page listens to. */
  events(signal: AbortSignal): Response;
  close(): void;
}

const encoder = new TextEncoder();

export function createDevReload({ heartbeatMs = 5_000 } = {}): DevReload {
  const dev: DevReloadState = {
    // A fresh start id per process: after `bun --watch` restarts us, every page sees a new version.
    start: crypto.randomUUID().slice(0, 8),
    version: 0,
    update: 0,
    failure: undefined,
    styles: {},
    pages: new Set(),
    heartbeatMs,
  };
  return {
    get state() {
      return stateOf(dev);
    },
    get failure() {
      return dev.failure;
    },
    ready: (change) => ready(dev, change),
    fail(next, { reload } = {}) {
      dev.failure = next;
      publish(dev, reload);
    },
    nudge: () => publish(dev),
    events: (signal) => events(dev, signal),
    close() {
      for (const page of [...dev.pages]) page.end();
    },
  };
}

/** One open page's event stream. */
interface PageStream {
  send(chunk: string): void;
  end(): void;
}

/** What the pages are told, and the pages listening. */
interface DevReloadState {
  readonly start: string;
  version: number;
  update: number;
  failure: DevFailure | undefined;
  /**
   * Every stylesheet URL this process served → the newest build from the same source, so a page that
   * missed an event (or loaded just before one) still finds its own links here.
   */
  readonly styles: Record<string, string>;
  readonly pages: Set<PageStream>;
  readonly heartbeatMs: number;
}

function stateOf(dev: DevReloadState): DevState {
  return { version: `${dev.start}.${dev.version}`, update: `${dev.start}.${dev.update}`, styles: { ...dev.styles } };
}

function message(dev: DevReloadState): string {
  return `data: ${JSON.stringify(stateOf(dev))}\n\n`;
}

function publish(dev: DevReloadState, reload = false): void {
  dev.update++;
  if (reload) dev.version++;
  for (const page of dev.pages) page.send(message(dev));
}

function ready(dev: DevReloadState, { reload, styles: swapped = {} }: Parameters<DevReload["ready"]>[0] = {}): void {
  const { styles } = dev;
  for (const [from, to] of Object.entries(swapped)) {
    for (const [served, current] of Object.entries(styles)) if (current === from) styles[served] = to;
    styles[from] = to;
  }
  // An edit undone: the page's link is current again.
  for (const [served, current] of Object.entries(styles)) if (served === current) delete styles[served];
  dev.failure = undefined;
  publish(dev, reload);
}

function events(dev: DevReloadState, signal: AbortSignal): Response {
  let end = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      end = listen(dev, controller, signal);
    },
    cancel: () => end(),
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Adds a page's stream to those every event goes to, and sends it the state now; returns what ends it. */
function listen(
  dev: DevReloadState,
  controller: ReadableStreamDefaultController<Uint8Array>,
  signal: AbortSignal,
): () => void {
  const page: PageStream = {
    send(chunk) {
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
  const beat = setInterval(() => page.send(": heartbeat\n\n"), dev.heartbeatMs);
  const end = () => {
    clearInterval(beat);
    dev.pages.delete(page);
    try {
      controller.close();
    } catch {}
  };
  dev.pages.add(page);
  signal.addEventListener("abort", end, { once: true });
  page.send(`retry: 100\n${message(dev)}`);
  return end;
}

/** The policy with more sources for style-src; 'unsafe-hashes' lets their hashes allow style attributes too. */
function withStyleSources(csp: string, sources: readonly string[]): string {
  if (!sources.length) return csp;
  return csp.replace(/(^|;\s*)style-src ([^;]*)/, `$1style-src $2 'unsafe-hashes' ${sources.join(" ")}`);
}

/**
 * The script goes at the very end of an HTML page, under the page's CSP nonce, after React's last chunk.
 * `errorPage`: the page reloads on any event, as it cannot tell what would fix it.
 */
function withReloadScript(
  response: Response,
  served: DevState,
  styleSources: readonly string[],
  { errorPage = false } = {},
): Response {
  const csp = response.headers.get("content-security-policy");
  const nonce = /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
  const tag = `<script${nonce ? ` nonce="${nonce}"` : ""}>${reloadScript(served, { errorPage })}</script>`;
  const body = response.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ flush: (controller) => controller.enqueue(encoder.encode(tag)) }),
  );
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  if (csp) headers.set("content-security-policy", withStyleSources(csp, styleSources));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Bun's page for a client that does not build, with the script that reloads it on the next event (`nudge`). */
export function clientFailurePage(page: Response, served: DevState): Response {
  return withReloadScript(page, served, [], { errorPage: true });
}

function wantsPage(pathname: string): boolean {
  return !pathname.startsWith("/__dev/") && !pathname.startsWith("/assets/");
}

/**
 * Use it before the app: `new Elysia().use(devReloadPlugin(reload)).use(createApp(…))`, so its global
 * response hook covers the app's routes. It works without an app too, when the app did not load.
 * `styleSources`: what pages' style-src allows besides the app's own (Bun's error overlay).
 */
export function devReloadPlugin(
  reload: DevReload,
  { styleSources = () => [] }: { styleSources?: () => readonly string[] } = {},
) {
  return new Elysia({ name: "brisk:dev-reload" })
    .get(DEV_EVENTS_PATH, ({ request, server }) => {
      // Bun would close a stream that stays quiet past idleTimeout; this one is meant to stay open.
      server?.timeout(request, 0);
      return reload.events(request.signal);
    })
    .onRequest(function showBuildFailure({ request }) {
      if (!reload.failure || !wantsPage(URL.parse(request.url)?.pathname ?? "/")) return;
      return new Response(devErrorPage(reload.failure, reload.state), {
        status: 500,
        headers: DEV_PAGE_HEADERS,
      });
    })
    .mapResponse({ as: "global" }, function injectReloadScript({ responseValue }) {
      if (!(responseValue instanceof Response) || !responseValue.body) return;
      if (!responseValue.headers.get("content-type")?.startsWith("text/html")) return;
      return withReloadScript(responseValue, reload.state, styleSources());
    });
}
