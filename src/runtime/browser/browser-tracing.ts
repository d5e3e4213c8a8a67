// browser-tracing.ts: pageload and navigation transactions named after the route, continuing the server's trace.
// A bundle of its own, built apart from the client's chunks with its own copy of Sentry's core (the copies share
// the SDK's state through Sentry's global carrier), which the Sentry chunk imports by URL only with tracing on.
import {
  browserTracingIntegration,
  startBrowserTracingNavigationSpan,
  startBrowserTracingPageLoadSpan,
  type BrowserClient,
  type Span,
} from "@sentry/react";
import type { BrowserNavigation } from "./browser-navigation.ts";
import type { BootState } from "../page-payload.ts";
import { NAME_SOURCE, UNMATCHED_ROUTE } from "../trace-names.ts";

export function startBrowserTracing(client: BrowserClient, boot: BootState, navigation: BrowserNavigation): void {
  // Brisk starts both kinds of transaction itself: Sentry's own would be named after the URL, and a
  // navigation would start only once the URL changes, after its page data has been fetched.
  client.addIntegration(browserTracingIntegration({ instrumentPageLoad: false, instrumentNavigation: false }));
  // The pageload continues the trace the server rendered the page in (and its sampling decision). It starts
  // at the browser's time origin, however late this bundle arrives.
  startBrowserTracingPageLoadSpan(
    client,
    { name: boot.page.route ?? UNMATCHED_ROUTE, attributes: { [NAME_SOURCE]: "route" } },
    boot.trace ? { sentryTrace: boot.trace["sentry-trace"], baggage: boot.trace.baggage } : undefined,
  );
  // A navigation starts with the click, so its page-data request (and the server's transaction for it) is
  // part of it; it is named by URL until its page data, committed, says which route it is.
  let pending: Span | undefined;
  navigation.onStart((to) => {
    const url = new URL(to, location.href);
    pending = startBrowserTracingNavigationSpan(
      client,
      { name: url.pathname, attributes: { [NAME_SOURCE]: "url" } },
      { url: url.href },
    );
  });
  navigation.subscribe(() => {
    const state = navigation.getState();
    // A navigation that could not reach the server leaves the page, and the span its URL name; one still on
    // its way (the pending state) has not committed its page yet.
    if (!pending || state.failedNavigation || state.pending) return;
    pending.updateName(state.page.payload.route ?? UNMATCHED_ROUTE);
    pending.setAttribute(NAME_SOURCE, "route");
    pending = undefined;
  });
}
