// browser-sentry.ts: the browser's Sentry client, in its own chunk, loaded only on pages whose config has a DSN.
// A BrowserClient with the integrations Brisk uses instead of Sentry.init()'s defaults, and this app reports
// React's errors itself. The tracing code is a chunk of its own again, loaded only with tracing on.
import {
  BrowserClient,
  breadcrumbsIntegration,
  browserSessionIntegration,
  captureException,
  captureReactException,
  consoleIntegration,
  defaultStackParser,
  eventFiltersIntegration,
  getCurrentScope,
  globalHandlersIntegration,
  httpContextIntegration,
  linkedErrorsIntegration,
  makeBrowserOfflineTransport,
  makeFetchTransport,
  withScope,
  type Event,
} from "@sentry/react";
import type { BrowserNavigation } from "./browser-navigation.ts";
import { debugIdOf, sentryDebugId } from "../debug-id.ts";
import { MASKED_QUERY_NAMES } from "../masked-query.ts";
import type { BootState, ClientConfig } from "../page-payload.ts";
import type { ErrorReport, Reporter, UnsentReport } from "../report.ts";
import { failUndelivered } from "../sentry-transport.ts";

/** Same origin, so ad blockers and the CSP's connect-src 'self' let it through; the server forwards it. */
const TUNNEL_PATH = "/monitoring";
/** Where a report leaves the visitor with an error page, or nothing caught it: unhandled, in Sentry's terms. */
const UNHANDLED: ReadonlySet<ErrorReport["mechanism"]> = new Set(["uncaught", "global", "boundary"]);

/**
 * Everything comes from the caller, so this chunk imports nothing of the app's: anything it shared with the
 * entry would become one more chunk on every page's critical path.
 */
export interface BrowserSentryOptions {
  ignoreErrors: RegExp[];
  boot: BootState;
  navigation: BrowserNavigation;
  /** The localStorage key under which a page whose Sentry never loaded left its reports. */
  unsentKey: string;
}

/** Before Sentry patches it: reading a script back must not become a breadcrumb or a span. */
const plainFetch = globalThis.fetch.bind(globalThis);
const scriptDebugIds = new Map<string, Promise<string | undefined>>();

/** The debug id a same-origin script ends with; the browser has it cached (hashed assets are immutable). */
function scriptDebugId(url: string): Promise<string | undefined> {
  let id = scriptDebugIds.get(url);
  if (!id) {
    id = plainFetch(url, { cache: "force-cache" })
      .then(
        (r) => (r.ok ? r.text() : ""),
        () => "",
      )
      .then(debugIdOf);
    scriptDebugIds.set(url, id);
  }
  return id;
}

/**
 * Gives an event `debug_meta` for the scripts its frames are in, so Sentry finds their uploaded source maps.
 * The ids are read back from the scripts only when an event is sent: no page pays for them up front.
 */
function debugMetaIntegration() {
  return {
    name: "BriskDebugMeta",
    async processEvent(event: Event) {
      const scripts = new Set<string>();
      for (const value of event.exception?.values ?? []) {
        for (const frame of value.stacktrace?.frames ?? []) {
          const file = frame.abs_path ?? frame.filename;
          if (file?.startsWith(`${location.origin}/`) && file.endsWith(".js")) scripts.add(file);
        }
      }
      const images = [];
      for (const script of scripts) {
        const id = await scriptDebugId(script);
        if (id) images.push({ type: "sourcemap" as const, code_file: script, debug_id: sentryDebugId(id) });
      }
      if (images.length)
        event.debug_meta = { ...event.debug_meta, images: [...(event.debug_meta?.images ?? []), ...images] };
      return event;
    },
  };
}

/**
 * Sentry hears clicks and key presses on the document, after the listeners added before it loaded: React's,
 * which render (and may fail) within the click, so that click's breadcrumb would come after the error's
 * event. Sentry's instrumented addEventListener gives a target its own listener in the phase of the first one
 * added to it: one capture listener on the window, added now, makes Sentry hear every click first of all.
 * (Tracing adds such a listener of its own; this makes errors-only pages the same.)
 */
function hearClicksFirst() {
  const heard = () => {};
  // On `window` by name: Sentry's wrapper needs the target as `this`, which a bare call leaves undefined.
  window.addEventListener("click", heard, { capture: true });
  window.addEventListener("keypress", heard, { capture: true });
}

/**
 * The page the visitor came from, without its query: Sentry filters the page's own URL but passes the Referer
 * on as it is, and a reset link's token or a sign-in's code would go with it.
 */
function refererPathIntegration() {
  return {
    name: "BriskRefererPath",
    processEvent(event: Event) {
      const headers = event.request?.headers;
      const referer = headers?.Referer;
      if (headers && referer) headers.Referer = referer.split(/[?#]/, 1)[0]!;
      return event;
    },
  };
}

/** Reports a page left behind when its Sentry chunk could not load, with when and where they happened. */
function sendUnsent(key: string, report: Reporter) {
  let unsent: UnsentReport[];
  try {
    unsent = JSON.parse(localStorage.getItem(key) ?? "[]") as UnsentReport[];
    localStorage.removeItem(key);
  } catch {
    return;
  }
  for (const { name, message, stack, url, time, ...rest } of unsent) {
    const error = Object.assign(new Error(message), { name, stack });
    withScope((scope) => {
      scope.setContext("unsent", { page: url, happened: new Date(time).toISOString() });
      report({ ...rest, error });
    });
  }
}

/** A task boundary: the browser may paint and answer a tap between two steps of Sentry's start. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Started in three tasks, not one: on a slow phone the client's start and the session's are each a long task
 * (bench/README.md, figures the source carried: the browser), and a single task that long is what a visitor's tap
 * waits for (total blocking time). Until the last step Brisk's own listeners (reporter.ts) hold the page's errors,
 * so none is reported twice or outside the session.
 */
export async function startBrowserSentry(
  { dsn, environment, release, tracing, sendDefaultPii }: NonNullable<ClientConfig["sentry"]>,
  { ignoreErrors, boot, navigation, unsentKey }: BrowserSentryOptions,
): Promise<Reporter> {
  const client = new BrowserClient({
    dsn,
    environment,
    release,
    tunnel: TUNNEL_PATH,
    // What cannot be sent now (offline, or the tunnel's upstream down) waits in IndexedDB, for this page or the next.
    transport: makeBrowserOfflineTransport(failUndelivered(makeFetchTransport)),
    transportOptions: { flushAtStartup: true } as object,
    stackParser: defaultStackParser,
    // No dedupe: each occurrence has its own digest and deserves its own event; the reporter already drops the
    // same failure seen twice. Breadcrumbs: clicks, fetch, navigation (breadcrumbs) and the console. A session per
    // page load and the global handlers come in the later steps below.
    integrations: [
      eventFiltersIntegration(),
      linkedErrorsIntegration(),
      httpContextIntegration(),
      refererPathIntegration(),
      breadcrumbsIntegration(),
      consoleIntegration(),
      debugMetaIntegration(),
    ],
    ignoreErrors,
    // SENTRY_SEND_DEFAULT_PII: without it, envelopes tell Sentry never to infer the visitor's IP address. The
    // page's URL has its sensitive query values masked, Brisk's names among them.
    dataCollection: { userInfo: sendDefaultPii === true, urlQueryParams: { deny: MASKED_QUERY_NAMES } },
    // Transactions ("static"), like the server's, so every Sentry ingests them.
    ...(tracing ? { tracesSampleRate: tracing.sampleRate, traceLifecycle: "static" as const } : {}),
  });
  getCurrentScope().setClient(client);
  client.init();
  hearClicksFirst();
  if (tracing) {
    // By URL, not by module name: the bundler then adds no loader for it to this chunk or the entry.
    void (import(/* @vite-ignore */ tracing.script) as Promise<typeof import("./browser-tracing.ts")>).then(
      (m) => m.startBrowserTracing(client, boot, navigation),
      () => {}, // Without it the page goes on untraced; errors are still reported.
    );
  }
  await nextTask();
  client.addIntegration(browserSessionIntegration());
  await nextTask();
  client.addIntegration(globalHandlersIntegration());

  const report: Reporter = ({ error, digest, componentStack, mechanism, level = "error" }: ErrorReport) => {
    const hint = {
      mechanism: { type: `brisk.${mechanism}`, handled: !UNHANDLED.has(mechanism) },
      captureContext: { level, tags: digest ? { digest } : {} },
    };
    // With a component stack, Sentry links it to the error as a cause, so the event shows where in the tree.
    if (componentStack) captureReactException(error, { componentStack }, hint);
    else captureException(error, hint);
  };
  sendUnsent(unsentKey, report);
  return report;
}
