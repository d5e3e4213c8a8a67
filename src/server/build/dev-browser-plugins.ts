// dev-browser-plugins.ts: the client build's plugins, for the bundler of Bun's development server, which
// bunfig.toml points here ([serve.static] plugins): the hot-reloaded bundle resolves and loads the app's
// modules as the production build does (`*.server.ts` stand-ins, the same `/assets/` URL for an imported image).
import type { BunPlugin } from "bun";
import { projectAppModule } from "./app-module.ts";
import { browserPlugins } from "./client-build.ts";

// Resolved rather than spelled out: if the module moves, this fails at once instead of quietly bundling Sentry.
const BROWSER_SENTRY = Bun.resolveSync("../../runtime/browser/browser-sentry.ts", import.meta.dir);

/**
 * Bun's development server bundles every dynamic import into the one script, and without tree-shaking the Sentry
 * SDK comes whole, megabytes of unminified code the browser parses on every load (bench/README.md, figures the
 * source carried: the browser build). The client starts Sentry only with a DSN, so without one it gets a stand-in
 * that exports the same names.
 */
const sentryOnlyWithDsn: BunPlugin = {
  name: "brisk:dev-sentry-only-with-dsn",
  setup(build) {
    if (Bun.env.SENTRY_DSN) return;
    build.onLoad({ filter: new RegExp(`^${RegExp.escape(BROWSER_SENTRY)}$`) }, () => ({
      contents:
        'export function startBrowserSentry() { throw new Error("the dev server bundles no Sentry without SENTRY_DSN"); }',
      loader: "js",
    }));
  },
};

// The server's bundle of the app (src/server/dev/server-app.ts) writes the imported files the dev server serves.
const plugins = [sentryOnlyWithDsn, ...browserPlugins(projectAppModule())];

/** bunfig.toml names modules, each with one plugin as its default export: this one runs all of them. */
const devBrowserPlugins: BunPlugin = {
  name: "brisk:dev-browser",
  async setup(build) {
    for (const plugin of plugins) await plugin.setup(build);
  },
};

export default devBrowserPlugins;
