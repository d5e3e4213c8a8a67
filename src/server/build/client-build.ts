// client-build.ts: bundles the browser code into content-hashed assets plus the manifest the server reads.
import type { BunPlugin } from "bun";
import { brotliCompressSync, constants } from "node:zlib";
import { mkdir, rm } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import type { AppDefinition } from "../../runtime/app-definition.ts";
import { isLazyPage } from "../../runtime/lazy-page.ts";
import { allRoutes } from "../../runtime/route-tree.ts";
import { importedAssets } from "../assets/imported-assets.ts";
import { TRACING_MODULE, type Manifest } from "../assets/manifest.ts";
import { listPublicDir } from "../assets/public-files.ts";
import { appModuleAlias, loadAppModule, type AppModule } from "./app-module.ts";
import { staticClosure, staticImports, type BuildOutputs } from "./chunk-graph.ts";
import { serverOnlyModules } from "./server-only.ts";
import { schedulerExports } from "./scheduler-exports.ts";
import { moveSourcemaps } from "./sourcemaps.ts";
import { wouterWithoutBrowserLocation } from "./wouter-location.ts";
import { wouterOnReact } from "./wouter-react.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const ENTRY = "src/entry-client.tsx";
/**
 * The server pins @sentry/core to @sentry/bun's version, so each browser Sentry package gets its own
 * nested copy of a newer core; resolving them all to @sentry/browser's copy ships one core, not two.
 */
const oneSentryCore: BunPlugin = {
  name: "brisk:one-sentry-core",
  setup(build) {
    const core = Bun.resolveSync("@sentry/core", join(ROOT, "node_modules/@sentry/browser"));
    build.onResolve({ filter: /^@sentry\/core$/ }, ({ importer }) =>
      importer.includes("/node_modules/@sentry/") ? { path: core } : undefined,
    );
  },
};

/**
 * How a browser bundle of the app resolves and loads its modules. Bun's development server bundles with the
 * same plugins (src/server/build/dev-browser-plugins.ts), so both builds see the same modules.
 */
export function browserPlugins(appPath: string, emit?: { dir: string; emitted: Set<string> }): BunPlugin[] {
  return [
    appModuleAlias(appPath),
    serverOnlyModules,
    oneSentryCore,
    wouterOnReact(ROOT),
    wouterWithoutBrowserLocation,
    schedulerExports,
    importedAssets(emit),
  ];
}

/** Below this size a compressed copy saves less than the bytes of its own headers. */
const PRECOMPRESS_MIN_BYTES = 512;

/**
 * For each `lazyPage` module of the route table: its chunk, then the chunks that one imports statically,
 * less those the entry already pulls in. A page preloads them all, so none waits for the entry to run.
 */
function lazyPageManifest(
  outputs: BuildOutputs,
  entry: string,
  chunks: Record<string, string>,
  { app, appDir }: { app: AppDefinition; appDir: string },
): Record<string, string[]> {
  const graph = staticImports(outputs);
  const withEntry = new Set(staticClosure(graph, entry));
  const lazyPages: Record<string, string[]> = {};
  for (const { component } of allRoutes(app.routes)) {
    if (!isLazyPage(component)) continue;
    const module = relative(ROOT, join(appDir, component.module));
    const chunk = chunks[module];
    if (!chunk) {
      throw new Error(
        `lazyPage("${component.module}") names no code-split module of the client build: does its import() load ${module}?`,
      );
    }
    lazyPages[component.module] = staticClosure(graph, chunk).filter((file) => !withEntry.has(file));
  }
  return lazyPages;
}

export interface BuildOptions {
  outdir?: string;
  mode?: "production" | "development";
  /** Precompressed .br/.gz copies. Off in development: brotli on the unminified bundle adds seconds to every rebuild. */
  compress?: boolean;
  /** The module that defines the app: `#app` (package.json "imports") unless a test builds a fixture app. */
  appModule?: string;
  /** Served at the site root; copied into the build so the binary embeds it. */
  publicDir?: string;
  /** The app, already loaded (the dev server's, which must not import `#app` itself); `appModule` is then ignored. */
  app?: AppModule;
  /**
   * Off: the stylesheets alone. The dev server does so, as Bun's development server bundles the scripts
   * (with hot-module replacement); the manifest then names no script, and code-split pages no chunks.
   */
  scripts?: boolean;
  /** Production source maps go here, out of the served folder (development serves its maps beside the scripts). */
  sourcemapDir?: string;
}

export async function buildClient({
  outdir = join(ROOT, "dist/client"),
  mode = "production",
  compress = mode === "production",
  appModule,
  publicDir = join(ROOT, "public"),
  app: loaded,
  scripts = true,
  sourcemapDir = join(outdir, "../sourcemaps"),
}: BuildOptions = {}): Promise<Manifest> {
  const { app, dir: appDir, path: appPath } = loaded ?? (await loadAppModule(appModule));
  const appStyles = app.styles ?? [];
  const styles = [...new Set([...appStyles, ...allRoutes(app.routes).flatMap((r) => r.styles ?? [])])];
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const emitted = new Set<string>();
  const entrypoints = [...(scripts ? [join(ROOT, ENTRY)] : []), ...styles.map((s) => join(appDir, s))];
  const outputs = await bundle(
    entrypoints,
    scripts,
    buildConfig(outdir, mode, browserPlugins(appPath, { dir: outdir, emitted })),
  );
  if (mode === "production") await moveSourcemaps(outdir, sourcemapDir, ROOT);
  const { entry, preload, css, styleFiles, chunks, files } = readOutputs(outputs, appDir);
  // App-wide stylesheets, in the order the app lists them, before any route's own.
  for (const style of appStyles) {
    const file = styleFiles[style];
    if (!file) throw new Error(`app stylesheet ${style} is not in the client build`);
    css.push(file);
  }
  files.push(...emitted);
  files.sort();
  const lazyPages = scripts
    ? lazyPageManifest(outputs, entry, chunks, { app, appDir })
    : Object.fromEntries(
        allRoutes(app.routes).flatMap(({ component }) => (isLazyPage(component) ? [[component.module, []]] : [])),
      );
  const publicListing = await copyPublicFiles(publicDir, outdir);
  const buildId = Bun.hash([...files, ...Object.entries(publicListing).flat()].join("\n")).toString(36);
  const compressed = compress ? await precompress(outdir, files) : {};
  const manifest: Manifest = {
    buildId,
    mode,
    entry,
    preload,
    css,
    styles: styleFiles,
    chunks,
    lazyPages,
    files,
    public: publicListing,
    compressed,
  };
  await Bun.write(join(outdir, "manifest.json"), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** What the app's bundle and the tracing bundle share. */
function buildConfig(outdir: string, mode: "production" | "development", plugins: BunPlugin[]) {
  return {
    outdir,
    root: ROOT,
    target: "browser",
    format: "esm",
    minify: mode === "production",
    // External in production: each script ends with its debug id, and no comment points browsers at a map.
    sourcemap: mode === "production" ? "external" : "linked",
    // Without this, React's development build (with its stack-leaking errors) ships to production.
    define: { "process.env.NODE_ENV": JSON.stringify(mode) },
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    metafile: true,
    plugins,
    throw: false,
  } satisfies Partial<Bun.BuildConfig>;
}

/**
 * Bundles the entry and the stylesheets, and (with scripts) the tracing code: the output files of both, by path.
 * The tracing code is a bundle apart, with its own copy of Sentry's core (which shares its state through
 * Sentry's global carrier): split from the Sentry chunk, the modules both use would make a chunk of their
 * own, and the cross-chunk names cost pages without tracing more (bench/README.md, figures the source carried).
 */
async function bundle(
  entrypoints: string[],
  scripts: boolean,
  config: ReturnType<typeof buildConfig>,
): Promise<Bun.BuildMetafile["outputs"]> {
  const [result, tracing] = await Promise.all([
    // Nothing to bundle: the dev server's stylesheets of an app without any (Bun.build refuses an empty list).
    entrypoints.length === 0
      ? undefined
      : Bun.build({
          ...config,
          entrypoints,
          splitting: true,
          // Bun's loader that adds a modulepreload link for each chunk an import() pulls in costs every first visit
          // (bench/README.md, figures the source carried); the HTML preloads a first page's chunks, and navigate.ts a
          // navigation's (preload-modules.ts).
          modulePreload: false,
        }),
    scripts ? Bun.build({ ...config, entrypoints: [join(ROOT, TRACING_MODULE)], splitting: false }) : undefined,
  ]);
  for (const build of [result, tracing]) {
    if (build && !build.success)
      throw new AggregateError(build.logs, `client build failed:\n${build.logs.map(String).join("\n")}`);
  }
  return { ...result?.metafile!.outputs, ...tracing?.metafile!.outputs };
}

/** The manifest's entries the output files give: the entry, its stylesheet and imports, the stylesheets, the chunks. */
function readOutputs(outputs: Bun.BuildMetafile["outputs"], appDir: string) {
  const files: string[] = [];
  let entry = "";
  const css: string[] = [];
  const preload: string[] = [];
  const styleFiles: Record<string, string> = {};
  const chunks: Record<string, string> = {};
  for (const [path, out] of Object.entries(outputs)) {
    const file = basename(path);
    if (file.endsWith(".map")) continue;
    files.push(file);
    const source = out.entryPoint ? relative(ROOT, resolve(ROOT, out.entryPoint)) : undefined;
    if (source === ENTRY && file.endsWith(".js")) {
      entry = file;
      if (out.cssBundle) css.push(basename(out.cssBundle));
      for (const i of out.imports) if (i.kind === "import-statement") preload.push(basename(i.path));
    } else if (source?.endsWith(".css")) {
      styleFiles[relative(appDir, join(ROOT, source))] = file;
    } else if (source && file.endsWith(".js")) {
      chunks[source] = file;
    }
  }
  return { entry, preload, css, styleFiles, chunks, files };
}

/**
 * Copies the public files into the build: only the files the folder lists, their contents rather than any
 * symlink, since the binary embeds this copy: a `.env` beside them, or what a symlink points to outside the
 * folder, never ends up inside it. Their listing: URL path → modification time.
 */
async function copyPublicFiles(publicDir: string, outdir: string): Promise<Record<string, number>> {
  const publicFiles = listPublicDir(publicDir);
  await Promise.all(
    [...publicFiles].map(([name, file]) => Bun.write(join(outdir, "public", name), Bun.file(file.path))),
  );
  return Object.fromEntries([...publicFiles].map(([path, file]) => [path, Math.floor(file.mtimeMs)]));
}

/** Writes the .br and .gz copies of the scripts and stylesheets worth compressing; those it wrote. */
async function precompress(outdir: string, files: string[]): Promise<Manifest["compressed"]> {
  const compressed: Manifest["compressed"] = {};
  await Promise.all(
    files
      .filter((f) => /\.(js|css)$/.test(f))
      .map(async (file) => {
        const bytes = new Uint8Array(await Bun.file(join(outdir, file)).arrayBuffer());
        if (bytes.length < PRECOMPRESS_MIN_BYTES) return;
        const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
        const gz = Bun.gzipSync(bytes, { level: 9 });
        await Promise.all([Bun.write(join(outdir, `${file}.br`), br), Bun.write(join(outdir, `${file}.gz`), gz)]);
        compressed[file] = ["br", "gzip"];
      }),
  );
  return compressed;
}
