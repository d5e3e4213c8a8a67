// browser-tracing.ts: pageload and navigation transactions named after the route, continuing the server's trace.
// A chunk of its own, loaded by the Sentry chunk only when the page config turns tracing on.
import {
  browserTracingIntegration,
  startBrowserTracingNavigationSpan,
  startBrowserTracingPageLoadSpan,
  type BrowserClient,
  type Span,
} from "@sentry/react";
import type { BrowserNavigation } from "../runtime/browser-navigation.ts";
import type { BootState } from "../runtime/page.ts";

/** @sentry/conventions' name of the attribute that becomes a transaction's `transaction_info.source`. */
const NAME_SOURCE = "sentry.segment.name.source";
/** The server's name for an unmatched path, so both sides group 404s alike. */
const UNMATCHED = "/*";

export function startBrowserTracing(client: BrowserClient, boot: BootState, navigation: BrowserNavigation): void {
  // Brisk starts both kinds of transaction itself: Sentry's own would be named after the URL, and a
  // navigation would start only once the URL changes, after its page data has been fetched.
  client.addIntegration(browserTracingIntegration({ instrumentPageLoad: false, instrumentNavigation: false }));
  // The pageload continues the trace the server rendered the page in (and its sampling decision). It starts
  // at the navigation's start, whenever this chunk arrives.
  startBrowserTracingPageLoadSpan(
    client,
    { name: boot.page.route ?? UNMATCHED, attributes: { [NAME_SOURCE]: "route" } },
    boot.trace ? { sentryTrace: boot.trace["sentry-trace"], baggage: boot.trace.baggage } : undefined,
  );
  // A navigation starts with the click, so its page-data request (and the server's transaction for it) is
  // part of it; it is named by URL until its page data, committed, says which route it is.
  let pending: Span | undefined;
  navigation.onStart((to) => {
    const url = new URL(to, location.href);
    pending = startBrowserTracingNavigationSpan(client, { name: url.pathname, attributes: { [NAME_SOURCE]: "url" } }, { url: url.href });
  });
  navigation.subscribe(() => {
    const state = navigation.getState();
    // A navigation that could not reach the server leaves the page, and the span its URL name.
    if (!pending || state.failedNavigation) return;
    pending.updateName(state.page.payload.route ?? UNMATCHED);
    pending.setAttribute(NAME_SOURCE, "route");
    pending = undefined;
  });
}
