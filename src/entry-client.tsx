// entry-client.tsx: the browser entry: read the page the server rendered, load its route, hydrate, then
// fetch the navigation code and start Sentry. The app comes from `#app` (package.json "imports"), which the
// client build points at the app's definition.
import app from "#app";
import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./runtime/App.tsx";
import { createBrowserNavigation, type BrowserNavigation } from "./runtime/browser/browser-navigation.ts";
import { bootState, readSettled } from "./runtime/browser/boot.ts";
import type { BootState } from "./runtime/page-payload.ts";
import { livePage, type LivePage } from "./runtime/browser/page-view.ts";
import { loadRouteOrRecover } from "./runtime/browser/recovery.ts";
import { ReporterContext } from "./runtime/report.ts";
import { routeTree } from "./runtime/route-tree.ts";
import { createBrowserReporter, IGNORED_ERRORS, UNSENT_KEY } from "./runtime/browser/reporter.ts";
import { rootErrorOptions } from "./runtime/browser/root-errors.tsx";

const sentry = window.__BRISK__.config.sentry;
const { fallbacks } = app;
const tree = routeTree(app.routes);
// Failures are kept from the first line on; Sentry itself loads last, and only with a DSN.
const reporter = createBrowserReporter(sentry !== undefined);
const report = reporter.report;

/** Streamed values that never arrived (the server gave up on them) must not leave Suspense waiting. */
function endOnceParsed(initial: LivePage, settled: () => Promise<unknown>) {
  const end = () =>
    void settled()
      .catch((error: unknown) => report({ error, mechanism: "chunk-load" }))
      .finally(initial.end);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", end, { once: true });
  else end();
}

/**
 * Not awaited at the top level: a module with a top-level await is one Bun's code splitting never folds other
 * modules into, so the code the entry shares with a code-split page would be a chunk of its own, one more file
 * on every first visit's critical path.
 */
async function start() {
  let live: { boot: BootState; navigation: BrowserNavigation } | undefined;
  try {
    // Without the codec's chunk a page sent in its form cannot be read: the server's HTML stays, as it is
    // without JavaScript.
    const boot = await bootState().catch((error: unknown) => void report({ error, mechanism: "chunk-load" }));
    if (!boot) return;
    const initial = livePage(boot.page);
    const navigation = createBrowserNavigation({ boot, initial, tree, report });
    live = { boot, navigation };
    endOnceParsed(initial, readSettled(initial.settle));
    // A code-split route is loaded before hydration, so hydration never meets a suspended lazy component.
    const route = await loadRouteOrRecover(new URL(location.href), boot.page, { tree, report });
    if (route === "ready") {
      // In a transition, hydration yields to the browser every few milliseconds instead of holding the main thread
      // for the whole page (a long task on a slow phone: bench/README.md, figures the source carried); a click
      // meanwhile still hydrates its target at once.
      startTransition(() => {
        hydrateRoot(
          document,
          <ReporterContext value={report}>
            <App app={app} navigation={navigation} settlements={initial.settlements} />
          </ReporterContext>,
          rootErrorOptions({ report, host: boot.host, mode: boot.config.mode, ErrorPage: fallbacks.error }),
        );
      });
      // Off the critical path: the first page needs no navigation code, the first click will.
      navigation.preload();
    } else if (route === "failed") {
      // The server's HTML cannot be hydrated without its code: replace it with the load-failure page.
      const container = document.createElement("div");
      document.body.replaceChildren(container);
      const LoadFailed = fallbacks["load-failed"];
      createRoot(container).render(<LoadFailed />);
    }
  } finally {
    // Off the critical path: the Sentry chunk is fetched only with a DSN, once hydration has been scheduled
    // (or has failed: that is worth sending too). Without a DSN no Sentry code is downloaded at all. A page
    // that never started keeps its reports for the next page, as when the Sentry chunk cannot load.
    if (sentry) {
      const started = live;
      void reporter.start(() =>
        started
          ? import("./runtime/browser/browser-sentry.ts").then((m) =>
              m.startBrowserSentry(sentry, { ignoreErrors: IGNORED_ERRORS, ...started, unsentKey: UNSENT_KEY }),
            )
          : Promise.reject(new Error("the page did not start")),
      );
    }
  }
}

void start();
