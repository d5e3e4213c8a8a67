// dev.ts: `bun run dev`: the app in development; the client rebuilds and open pages reload on every save.
//
// `bun --watch` (the package.json script) restarts this process when a file the server imports changes.
// This process watches src/ for the rest, the client-only files, rebuilds the client and tells pages to
// reload over server-sent events. Whatever fails to build is shown in the terminal and in place of every page.
import { watch } from "node:fs";
import { join, resolve } from "node:path";
import { Elysia } from "elysia";
import { describeError } from "../src/brisk/dev/dev-page.ts";
import { createDevReload, devReloadPlugin, type DevFailure } from "../src/brisk/dev/dev-reload.ts";
import { configOrExit } from "../src/brisk/server/startup-config.ts";

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");
const BUILDS = join(ROOT, "dist/dev");
/** A module of our own that bun --watch watches once imported: writing it restarts this process. */
const RESTART = join(BUILDS, "restart.ts");
/** Edits close together (an editor's save, a formatter after it) make one rebuild. */
const DEBOUNCE_MS = 20;
/** Longer than bun --watch takes to restart for a file it watches, so that restart usually comes first. */
const RESTART_DELAY_MS = 100;

// Before the app is imported: React picks its development build from this.
process.env.NODE_ENV = "development";

function failure(title: string, error: unknown): DevFailure {
  const colors = Boolean(process.stderr.isTTY);
  console.error(`\n✖ ${title}\n\n${describeError(error, { root: ROOT, colors })}\n`);
  return { title, detail: describeError(error, { root: ROOT }) };
}

const config = configOrExit(Bun.env);
const reload = createDevReload();
const root = new Elysia({ name: "brisk:dev" }).use(devReloadPlugin(reload));
let firstBuild: Promise<unknown> = Promise.resolve();

try {
  // Everything that reaches app code is imported here, not above: a syntax error in it becomes the
  // error page, and this process stays up to serve it. bun --watch restarts us once the file is fixed.
  const { importedAssets } = await import("../src/brisk/server/imported-assets.ts");
  Bun.plugin(importedAssets());
  const [{ buildClient }, { loadClientAssets }, { createDevClient, clientSourceKey }, { default: app }] = await Promise.all([
    import("./build-client.ts"),
    import("../src/brisk/server/assets.ts"),
    import("../src/brisk/dev/dev-client.ts"),
    import("#app"),
  ]);
  const client = createDevClient({
    dir: BUILDS,
    build: (outdir) => buildClient({ outdir, mode: "development" }),
    load: (outdir) => loadClientAssets(app.routes, outdir),
    sourceKey: () => clientSourceKey(ROOT),
  });
  let served: string | undefined;
  const rebuild = async () => {
    const result = await client.rebuild();
    if (!result.ok) return reload.fail(failure("The client does not build", result.error));
    if (result.outcome !== "unchanged") console.log(`client ${result.outcome} in ${result.ms} ms (build ${result.buildId})`);
    // The same output (the edit was a comment, say): open pages are already current.
    if (result.buildId === served && !reload.failure) return;
    served = result.buildId;
    reload.ready();
  };
  // The bundler works on its own threads: the first build runs while the server's modules load.
  firstBuild = rebuild();
  const [{ createApp }, { livePublicFiles }, { startApp }] = await Promise.all([
    import("../src/brisk/server/app.ts"),
    import("../src/brisk/server/public-files.ts"),
    import("../src/brisk/server/app-start.ts"),
  ]);
  const { cookieSigner } = await startApp(config, app, (record) => console.log(JSON.stringify(record)));
  // @sentry/bun alone takes a few hundred milliseconds to load: only with a DSN.
  const monitoring = config.sentryDsn
    ? (await import("../src/brisk/server/sentry.ts")).initServerSentry(config, config.sentryRelease ?? "development")
    : undefined;
  await firstBuild;
  // Public files are read from the folder on each request: an edit there shows without a rebuild.
  const publicFiles = livePublicFiles(join(ROOT, "public"));
  root.use(createApp(config, app, { assets: client.assets, publicFiles, cookieSigner, capture: monitoring?.capture }));

  let timer: ReturnType<typeof setTimeout> | undefined;
  watch(SRC, { recursive: true }, (_event, file) => {
    if (!file || !/\.(tsx?|jsx?|css|json)$/.test(file)) return;
    // A module the server has loaded restarts this process (bun --watch), which rebuilds on start:
    // building here as well would only race that restart for the CPU.
    if (join(SRC, file) in require.cache) return;
    clearTimeout(timer);
    timer = setTimeout(rebuild, DEBOUNCE_MS);
  });
} catch (error) {
  // After the client build has settled, so that its success cannot clear this failure.
  await firstBuild;
  reload.fail(failure("The server code does not load", error));
  // bun --watch does not watch a module that could not be found, so creating it would go unnoticed:
  // any change in src/ restarts us instead, through a module it does watch.
  await Bun.write(RESTART, "export {};\n");
  await import(RESTART);
  let timer: ReturnType<typeof setTimeout> | undefined;
  watch(SRC, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => Bun.write(RESTART, `export const at = ${Date.now()};\n`), RESTART_DELAY_MS);
  });
}

// No reusePort here: a second dev server on the same port should fail loudly, not split the requests.
root.listen({ hostname: config.host, port: config.port, reusePort: false });
const shown = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
console.log(`brisk dev server: http://${shown}:${root.server!.port}`);
