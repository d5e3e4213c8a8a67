// binary.ts: what `bun run build` makes: the production client, then one self-contained server binary that embeds it.
import { mkdir, rm, stat } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { EMBEDDED_SOURCES_DIR } from "../monitoring/sentry-frames.ts";
import { importedAssets } from "../assets/imported-assets.ts";
import { appModuleAlias, projectAppModule } from "./app-module.ts";
import { buildClient } from "./client-build.ts";
import { reactServerForBun } from "./react-server-bun.ts";

const ROOT = resolve(import.meta.dir, "../../..");

export interface BinaryBuild {
  binary: string;
  bytes: number;
  buildId: string;
  /** What the build prerendered, as scripts/prerender.ts says it. */
  prerendered: string;
}

/**
 * Builds `<outdir>/brisk` with the client from `<outdir>/client` embedded. Assets keep only the last
 * segment of the folder, so the binary finds it as `client/` beside its own code (see findClientDir).
 */
export interface BinaryOptions {
  outdir?: string;
  /** The module whose default export is the app; the project's `#app` by default (a test names a fixture app). */
  appModule?: string;
  /**
   * Embeds the server's source maps, with function names kept, so that stacks in logs and Sentry name the
   * `src/…` file, line and function instead of a chunk of the binary. On by default; what it costs in size,
   * cold start and memory is in bench/README.md ("Server source maps in the binary").
   */
  serverSourcemaps?: boolean;
  /**
   * Renders the app's prerendered pages into the build (scripts/prerender.ts), so the binary serves them from
   * its first request. On by default; without, the binary renders them as it starts (bench/prerender-start.ts).
   */
  prerender?: boolean;
}

export async function buildBinary({
  outdir = join(ROOT, "dist"),
  appModule = projectAppModule(),
  serverSourcemaps = true,
  prerender: withPages = true,
}: BinaryOptions = {}): Promise<BinaryBuild> {
  const clientDir = join(outdir, "client");
  const binary = join(outdir, "brisk");
  await mkdir(outdir, { recursive: true });
  await rm(binary, { force: true });
  const manifest = await buildClient({ outdir: clientDir, mode: "production", appModule });
  const prerendered = withPages ? await prerender(clientDir, appModule) : "nothing prerendered";
  const sourcesDir = join(outdir, EMBEDDED_SOURCES_DIR);
  if (serverSourcemaps) await copyProjectSources(sourcesDir, appModule);
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src/server/main.ts")],
    target: "bun",
    // --bytecode needs ESM here: as CommonJS, main.ts's top-level await does not build.
    format: "esm",
    bytecode: true,
    // Without it every `await import()` in main.ts is evaluated at start-up anyway (bench/README.md, figures the
    // source carried: start-up).
    splitting: true,
    // What --production does: without the define, React's development build (which leaks stacks into
    // pages) would be the one bundled.
    minify: serverSourcemaps ? { whitespace: true, syntax: true, identifiers: false } : true,
    sourcemap: serverSourcemaps ? "linked" : "none",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    // importedAssets: main.ts's runtime plugin does not reach what is bundled; without it here an imported
    // image would be Bun's embedded file (`/$bunfs/root/…`) on every page the build did not prerender.
    plugins: [appModuleAlias(appModule), importedAssets(), reactServerForBun(ROOT)],
    compile: {
      outfile: binary,
      // Embedded as `client/…` beside the code, where findClientDir looks, and the sources as `sources/…`,
      // where error events read their lines (sentry-frames.ts).
      assets: serverSourcemaps ? [clientDir, sourcesDir] : [clientDir],
      // Configuration comes from the environment only; a stray bunfig.toml in the working folder must not change the binary.
      autoloadBunfig: false,
    },
    throw: false,
  });
  if (!result.success)
    throw new AggregateError(result.logs, `bun build --compile failed:\n${result.logs.map(String).join("\n")}`);
  // The maps and sources are inside the binary; the copies beside it are not needed to run or upload.
  await Promise.all(result.outputs.filter((o) => o.path.endsWith(".map")).map((o) => rm(o.path, { force: true })));
  await rm(sourcesDir, { recursive: true, force: true });
  return { binary, bytes: (await stat(binary)).size, buildId: manifest.buildId, prerendered };
}

/** The code the server runs of its own: Brisk's (both sides share src/runtime) and the app's folder. */
const SOURCE_FILES = new Bun.Glob("**/*.{ts,tsx,js,jsx,mjs}");

/**
 * Copies the project's own server code under its paths in the project, for the binary to embed: its stack
 * frames name these files (from its source maps), and an error event shows their lines. The dependencies'
 * are left out, as their frames are not the app's.
 */
async function copyProjectSources(sourcesDir: string, appModule: string): Promise<void> {
  await rm(sourcesDir, { recursive: true, force: true });
  const roots = [join(ROOT, "src/server"), join(ROOT, "src/runtime"), dirname(resolve(appModule))];
  for (const root of new Set(roots)) {
    for await (const file of SOURCE_FILES.scan({ cwd: root })) {
      if (file.includes("node_modules/")) continue;
      const path = join(root, file);
      // Bun.write makes the folders on the way.
      await Bun.write(join(sourcesDir, relative(ROOT, path)), Bun.file(path));
    }
  }
}

/**
 * The prerendered pages, rendered now so that the binary serves them from its first request. In a process of
 * its own: it loads the app under React's production build, whatever this one runs under.
 */
async function prerender(clientDir: string, appModule: string): Promise<string> {
  const proc = Bun.spawn(["bun", join(ROOT, "scripts/prerender.ts"), clientDir, appModule], {
    cwd: ROOT,
    env: { ...Bun.env, NODE_ENV: "production" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`the build cannot prerender: ${(err || out).trim()}`);
  return out.trim();
}
