// dev-server.ts: `bun run dev` (scripts/dev.ts): the app in development. An edit to a component reaches the open
// pages as a hot update that keeps their state; the server renders the saved code from the next request on.
//
// Three things watch the sources:
// - `bun --watch` (the package.json script) restarts this process when a module it imported changes: the dev
//   server's own (src/server/dev, the config, the build scripts). The app and the framework's server are
//   not among them: this process imports builds of them.
// - Bun's development server bundles the browser code (src/server/dev/client.html) and sends each save to the
//   open pages: React Fast Refresh re-renders the edited components in place; a module it cannot swap so
//   (routes.tsx, say) reloads the page. A syntax error shows there, over the page, until it is fixed.
// - This process, on every save under src/, builds the server code again (server-app.ts) and the stylesheets
//   when they changed, then tells the open pages over server-sent events what hot updates do not carry:
//   stylesheets to swap, a reload after an edit only the server sees (a loader), an error only the server
//   sees. Whatever fails is shown in the terminal and in place of every new page.
import { watch } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Elysia } from "elysia";
import type { PublicFiles } from "../assets/public-files.ts";
import type { writeRouteTypes } from "../build/route-types.ts";
import type { Config } from "../config/config.ts";
import { isDevServerHost, isLoopbackHost } from "../http/host-check.ts";
import type { Logger } from "../monitoring/logger.ts";
import type { ServerMonitoring } from "../monitoring/sentry.ts";
import { text } from "../request/responses.ts";
import { configOrExit } from "../startup-config.ts";
import { CLIENT_SHELL_PATH, clientBundles, type ClientBundles } from "./client-bundle.ts";
import clientShell from "./client.html";
import type { DevClient } from "./dev-client.ts";
import { describeError } from "./dev-page.ts";
import { clientFailurePage, createDevReload, devReloadPlugin, type DevFailure, type DevReload } from "./dev-reload.ts";
import { createEditQueue, type EditQueue } from "./edit-queue.ts";
import { createHold, type Hold } from "./hold.ts";
import type { onlyServerSees, ServerApp, ServerAppBuilder } from "./server-app.ts";
import { startLogs } from "./start-log.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const SRC = join(ROOT, "src");
const BUILDS = join(ROOT, "dist/dev");
/** A module of our own that bun --watch watches once imported: writing it restarts this process. */
const RESTART = join(BUILDS, "restart.ts");
/** Longer than bun --watch takes to restart for a file it watches, so that restart usually comes first. */
const RESTART_DELAY_MS = 100;

function failure(title: string, error: unknown): DevFailure {
  const colors = Boolean(process.stderr.isTTY);
  console.error(`\n✖ ${title}\n\n${describeError(error, { root: ROOT, colors })}\n`);
  return { title, detail: describeError(error, { root: ROOT }) };
}

/** The files a build error names: Bun's build messages carry their position. */
function filesNamedBy(error: unknown): string[] {
  const messages = error instanceof AggregateError ? error.errors : [];
  return messages.flatMap((m: { position?: { file?: string } | null }) => (m.position?.file ? [m.position.file] : []));
}

/** What the requests read of the app, set once it is loaded. */
interface DevApp {
  serve: ((request: Request) => Response | Promise<Response>) | undefined;
  /** The client entry's URL as Bun's development server last bundled it. */
  entryUrl: string;
  handleEdits(files: string[]): Promise<void>;
  /** The files saved since the server code's last build began. */
  savedSinceBuild(): string[];
}

interface Parts {
  config: Config;
  reload: DevReload;
  edits: EditQueue;
  bundles: ClientBundles;
  hold: Hold;
}

/**
 * The server every request meets: its own names only, each once the app has loaded and after the edits saved so
 * far, then the app.
 */
function devRoot(app: DevApp, { config, reload, edits, bundles, hold }: Parts) {
  return (
    new Elysia({ name: "brisk:dev", serve: { routes: { [CLIENT_SHELL_PATH]: clientShell } } })
      .onRequest(function refuseOtherHosts({ request }) {
        const host = request.headers.get("host");
        if (!isDevServerHost(host, config.host))
          return text(403, `this development server answers to localhost, not to ${JSON.stringify(host)}`);
      })
      .onRequest(async function awaitAppAndEdits({ request }) {
        const { pathname } = new URL(request.url);
        if (pathname.startsWith("/__dev/")) return;
        // The browser reloads for some edits (routes.tsx, a loader) as soon as Bun's development server has
        // bundled them, which can be before this process hears of the save: no page renders older code.
        const saved = app.savedSinceBuild();
        if (saved.length) edits.add(...saved);
        // The server listens before the app has loaded: what comes first waits for it, not for a 503.
        const waiting = await hold.wait(edits.settled());
        if (waiting) return waiting;
        // While the app fails, every page is the error page (devReloadPlugin): it loads no client.
        if (pathname.startsWith("/assets/") || !app.serve || reload.failure) return;
        const bundle = await bundles.current();
        if (!bundle.ok) {
          bundles.watchForFix();
          return clientFailurePage(bundle.errorPage, reload.state);
        }
        app.entryUrl = bundle.url;
      })
      .use(devReloadPlugin(reload, { styleSources: bundles.styleSources }))
      // Without an app only when it failed to load: a page is then its error page (devReloadPlugin), an asset this.
      .all("*", ({ request }) => app.serve?.(request) ?? new Response("the app is not loaded\n", { status: 503 }), {
        parse: "none",
      })
  );
}

/**
 * Loads the rest of the dev server, builds the app and serves it, then rebuilds on every save under src/. It
 * is imported here, not above: a syntax error in it becomes the error page, and this process stays up to
 * serve it. bun --watch restarts us once the file is fixed.
 */
async function loadApp(app: DevApp, parts: Parts, firstBundle: Promise<unknown>): Promise<void> {
  const builds = await appBuilds(app, parts);
  app.savedSinceBuild = builds.serverApp.saved;
  app.handleEdits = (files) => handleEdits(builds, files);
  parts.edits.add();
  await Promise.all([parts.edits.settled(), firstBundle]);
  watch(SRC, { recursive: true }, (_event, file) => {
    if (!file) return;
    const path = join(SRC, file);
    // A module this process imported restarts it (bun --watch), which builds on start: building here as
    // well would only race that restart for the CPU.
    if (path in require.cache) return;
    parts.edits.add(path);
  });
}

/**
 * What each edit's build reads and changes: the builders of the server code and the stylesheets, and the app
 * built and started last.
 */
interface AppBuilds {
  readonly app: DevApp;
  readonly config: Config;
  readonly reload: DevReload;
  readonly serverApp: ServerAppBuilder;
  readonly client: DevClient;
  readonly monitoring: ServerMonitoring | undefined;
  readonly publicFiles: PublicFiles;
  readonly startLog: () => Logger;
  readonly writeRouteTypes: typeof writeRouteTypes;
  readonly onlyServerSees: typeof onlyServerSees;
  built: ServerApp | undefined;
  started: Awaited<ReturnType<ServerApp["startApp"]>> | undefined;
}

/** Imports the rest of the dev server (see loadApp) and sets up the builds, nothing built yet. */
async function appBuilds(app: DevApp, { config, reload }: Parts): Promise<AppBuilds> {
  const [
    { buildClient },
    { projectAppModule },
    { loadClientAssets },
    { createDevClient, stylesSourceKey },
    { createServerAppBuilder, onlyServerSees },
    { livePublicFiles },
    { writeRouteTypes },
  ] = await Promise.all([
    import("../build/client-build.ts"),
    import("../build/app-module.ts"),
    import("../assets/assets.ts"),
    import("./dev-client.ts"),
    import("./server-app.ts"),
    import("../assets/public-files.ts"),
    import("../build/route-types.ts"),
  ]);
  const startLog = startLogs((record) => console.log(JSON.stringify(record)));
  const appModule = projectAppModule();
  const importedDir = join(BUILDS, "imported");
  const serverApp = createServerAppBuilder({
    entry: join(SRC, "server/dev/server-entry.ts"),
    appModule,
    // The scripts of src/server/dev/client.html.
    browserEntries: [join(SRC, "server/dev/hot-status.ts"), join(SRC, "entry-client.tsx")],
    outdir: join(BUILDS, "server"),
    importedDir,
    srcDir: SRC,
  });
  const builtApp = () => builds.built!.app;
  const client = createDevClient({
    dir: BUILDS,
    build: (outdir) =>
      buildClient({
        outdir,
        mode: "development",
        scripts: false,
        app: { path: appModule, dir: dirname(appModule), app: builtApp() },
      }),
    load: (outdir) => loadClientAssets(builtApp().routes, outdir),
    sourceKey: () => stylesSourceKey(ROOT, builtApp()),
    entryUrl: () => app.entryUrl,
    importedDir,
    buildId: `dev-${Date.now().toString(36)}`,
  });
  // @sentry/bun is slow to load (bench/README.md, figures the source carried: start-up): only with a DSN.
  const monitoring = config.sentryDsn
    ? (await import("../monitoring/sentry.ts")).initServerSentry(config, config.sentryRelease ?? "development")
    : undefined;
  // Public files are read from the folder on each request: an edit there shows without a rebuild.
  const publicFiles = livePublicFiles(join(ROOT, "public"));
  const builds: AppBuilds = {
    app,
    config,
    reload,
    serverApp,
    client,
    monitoring,
    publicFiles,
    startLog,
    writeRouteTypes,
    onlyServerSees,
    built: undefined,
    started: undefined,
  };
  return builds;
}

/** Builds what the saved `files` change (the server code, the stylesheets), serves a new app, tells the open pages. */
async function handleEdits(builds: AppBuilds, files: string[]): Promise<void> {
  const { serverApp, reload, onlyServerSees } = builds;
  const before = builds.built;
  if (!before || files.some(serverApp.affects)) {
    const started = performance.now();
    try {
      builds.built = await serverApp.build();
    } catch (error) {
      // Bun's development server shows a syntax error in the browser's code over the open pages itself.
      const named = filesNamedBy(error);
      const shownInBrowser = named.length > 0 && named.every((f) => before?.browserModules.has(f));
      const title = error instanceof AggregateError ? "The code does not build" : "The server code does not load";
      return reload.fail(failure(title, error), { reload: !shownInBrowser });
    }
    if (before) console.log(`server code built in ${Math.round(performance.now() - started)} ms`);
  }
  const styles = await builds.client.rebuild();
  if (!styles.ok) return reload.fail(failure("The stylesheets do not build", styles.error), { reload: true });
  if (styles.outcome !== "unchanged") console.log(`stylesheets ${styles.outcome} in ${styles.ms} ms`);
  if (builds.built !== before) await serveBuilt(builds, builds.built!);
  // An edit the browser's bundle does not contain (a loader, what only loaders import) reaches open pages
  // by reloading them.
  reload.ready({
    reload: files.some((f) => onlyServerSees(before, f) || onlyServerSees(builds.built, f)),
    styles: styles.styles,
  });
}

/**
 * Serves a new build of the server code. Each build is a fresh copy of the app's modules: its own start (the
 * example store), after the previous copy's stop.
 */
async function serveBuilt(builds: AppBuilds, built: ServerApp): Promise<void> {
  const { config, client, monitoring, publicFiles } = builds;
  await builds.started?.stop();
  const started = (builds.started = await built.startApp(config, built.app, builds.startLog()));
  const handler = built.createApp(config, built.app, {
    assets: client.assets,
    publicFiles,
    cookieSigner: started.cookieSigner,
    capture: monitoring?.capture,
  });
  builds.app.serve = (request) => handler.handle(request);
  // The table's paths for the type checker and the editor: a new route is a path links may take.
  await builds
    .writeRouteTypes(built.app.routes)
    .catch((error: unknown) => console.error(`route types not written: ${String(error)}`));
}

/**
 * After the dev server failed to load: bun --watch does not watch a module that could not be found, so
 * creating it would go unnoticed: any change in src/ restarts us instead, through a module it does watch.
 */
async function restartOnAnyEdit(): Promise<void> {
  await Bun.write(RESTART, "export {};\n");
  await import(RESTART);
  let timer: ReturnType<typeof setTimeout> | undefined;
  watch(SRC, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => Bun.write(RESTART, `export const at = ${Date.now()};\n`), RESTART_DELAY_MS);
  });
}

/** `holdMs`: how long a request waits for the app to load or an edit to build (hold.ts), then gets a page saying so. */
export async function startDevServer(
  env: Record<string, string | undefined>,
  { holdMs }: { holdMs?: number } = {},
): Promise<void> {
  // Before the server code is imported: React picks its development build from this.
  process.env.NODE_ENV = "development";
  const config = configOrExit(env);
  const app: DevApp = { serve: undefined, entryUrl: "", handleEdits: async () => {}, savedSinceBuild: () => [] };
  const edits = createEditQueue((files) => app.handleEdits(files));
  const reload = createDevReload();
  const bundles = clientBundles(() => root.server!.url, { onFixed: reload.nudge });
  const hold = createHold({ holdMs });
  const parts: Parts = { config, reload, edits, bundles, hold };
  const root = devRoot(app, parts);
  // No reusePort here: a second dev server on the same port should fail loudly, not split the requests.
  // Listening first: requests wait above for the app, and Bun's development server can start bundling.
  root.listen({ hostname: config.host, port: config.port, reusePort: false });
  if (!isLoopbackHost(config.host)) {
    console.warn(
      `brisk dev server: HOST=${config.host} lets other machines reach it, and development pages show error stacks and file paths`,
    );
  }
  // Bun's development server bundles the client the first time its page is asked for: on its own threads,
  // while this process loads the rest.
  const firstBundle = bundles.current().catch(() => undefined);
  const shown = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  const url = `http://${shown}:${root.server!.port}`;
  console.log(`brisk dev server listening on ${url}, loading the app`);
  try {
    await loadApp(app, parts, firstBundle);
  } catch (error) {
    parts.reload.fail(failure("The server code does not load", error));
    await restartOnAnyEdit();
  } finally {
    hold.loaded();
  }
  console.log(`brisk dev server: ${url}`);
}
