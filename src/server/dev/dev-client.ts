// dev-client.ts: development only: the client as the dev server serves it. The scripts come from Bun's development
// server (with hot updates); the stylesheets from the client build, rebuilt when their sources change, one
// build at a time, the newest good one served.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { AppDefinition } from "../../runtime/app-definition.ts";
import { isLazyPage } from "../../runtime/lazy-page.ts";
import { allRoutes } from "../../runtime/route-tree.ts";
import { ASSETS_PREFIX, type ClientAssets } from "../assets/assets.ts";
import { IMPORTED_ASSET } from "../assets/imported-assets.ts";

export type RebuildResult =
  /**
   * built: a new build; reused: the previous process's build, still good; unchanged: nothing to do.
   * `styles`: each stylesheet URL of the build before → its URL now, for those that changed.
   */
  | { ok: true; ms: number; outcome: "built" | "reused" | "unchanged"; styles: Record<string, string> }
  | { ok: false; error: unknown };

export interface DevClientOptions {
  /** Each build gets a fresh folder in here, so a build never writes over the files being served. */
  dir: string;
  build(outdir: string): Promise<unknown>;
  load(outdir: string): ClientAssets;
  /** Changes whenever anything the build reads changes. */
  sourceKey(): Promise<string>;
  /** The URL of the client entry's bundle, as Bun's development server names it now. */
  entryUrl(): string;
  /** The files components import (images, fonts), which the server's build of the app writes here. */
  importedDir: string;
  /** Stands in for the build's own id: the scripts are updated in place, so page data stays valid across builds. */
  buildId: string;
}

export interface DevClient {
  /** Always the newest good build: the app is created once per app build and keeps serving through rebuilds. */
  readonly assets: ClientAssets;
  /** Builds when the sources changed since the last good build, in this process or the one before it. */
  rebuild(): Promise<RebuildResult>;
}

const KEY_FILE = ".source-key";
const BUILD_PREFIX = "build-";

/**
 * What the stylesheet build reads: from the app, its stylesheets and its code-split pages (which get no
 * chunks); the files under src/ that are not scripts (stylesheets and what they `url()`); the build
 * plugins (src/server/build/); and the files that decide how dependencies resolve.
 */
export async function stylesSourceKey(root: string, app: Pick<AppDefinition, "styles" | "routes">): Promise<string> {
  const fromApp = [
    ...(app.styles ?? []),
    ...allRoutes(app.routes).flatMap((r) => [
      ...(r.styles ?? []),
      ...(isLazyPage(r.component) ? [r.component.module] : []),
    ]),
  ];
  const listed = await readdir(join(root, "src"), { recursive: true, withFileTypes: true });
  const files = listed
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .filter((path) => path.startsWith(join(root, "src/server/build/")) || !/\.[cm]?[jt]sx?$/.test(path))
    .concat(["package.json", "bun.lock", "tsconfig.json"].map((f) => join(root, f)).filter(existsSync))
    .sort();
  const hasher = new Bun.CryptoHasher("sha256").update(`${JSON.stringify(fromApp)}\0`);
  for (const path of files)
    hasher
      .update(`${path}\0`)
      .update(await readFile(path))
      .update("\0");
  return hasher.digest("hex");
}

/** The URL of each stylesheet, by the source it was built from. */
function styleUrls(assets: ClientAssets | undefined): Record<string, string> {
  const files = assets?.manifest.styles ?? {};
  return Object.fromEntries(Object.entries(files).map(([source, file]) => [source, ASSETS_PREFIX + file]));
}

export function createDevClient(options: DevClientOptions): DevClient {
  const client: DevClientState = { ...options, current: undefined, running: undefined, queued: undefined };
  return {
    assets: {
      get manifest() {
        return { ...good(client).assets.manifest, buildId: client.buildId };
      },
      get entryUrl() {
        return client.entryUrl();
      },
      forMatch: (match) => good(client).assets.forMatch(match),
      get: (name) => good(client).assets.get(name) ?? sideFile(client, name),
      publicFiles: { find: (pathname) => good(client).assets.publicFiles.find(pathname) },
    },
    rebuild: () => rebuild(client),
  };
}

/** What the assets served and the builds share. */
interface DevClientState extends DevClientOptions {
  /** The newest good build, and the source key it was built from. */
  current: { assets: ClientAssets; outdir: string; key: string } | undefined;
  /** The build under way, and the one to run after it. */
  running: Promise<RebuildResult> | undefined;
  queued: Promise<RebuildResult> | undefined;
}

function good(client: DevClientState) {
  if (!client.current) throw new Error("the client has not built yet");
  return client.current;
}

function rebuild(client: DevClientState): Promise<RebuildResult> {
  // Changes that arrive during a build need one more build after it, however many there were.
  if (client.queued) return client.queued;
  if (!client.running) return (client.running = buildOnce(client).finally(() => (client.running = undefined)));
  client.queued = client.running.then(() => {
    client.queued = undefined;
    return rebuild(client);
  });
  return client.queued;
}

async function buildOnce(client: DevClientState): Promise<RebuildResult> {
  const { dir } = client;
  const started = performance.now();
  const before = styleUrls(client.current?.assets);
  const key = await client.sourceKey();
  const done = (outcome: "built" | "reused" | "unchanged"): RebuildResult => {
    const after = styleUrls(good(client).assets);
    const styles = Object.fromEntries(
      Object.entries(before).flatMap(([source, url]) =>
        after[source] && after[source] !== url ? [[url, after[source]]] : [],
      ),
    );
    return { ok: true, ms: Math.round(performance.now() - started), outcome, styles };
  };
  if (client.current?.key === key) return done("unchanged");
  const reusable = client.current ? undefined : await previousBuild(dir, key);
  if (reusable) {
    await keep(client, reusable, key);
    return done("reused");
  }
  await mkdir(dir, { recursive: true });
  const outdir = await mkdtemp(join(dir, BUILD_PREFIX));
  try {
    await client.build(outdir);
    await writeFile(join(outdir, KEY_FILE), key);
    await keep(client, outdir, key);
    return done("built");
  } catch (error) {
    await rm(outdir, { recursive: true, force: true });
    return { ok: false, error };
  }
}

/** After a restart for a server-only edit, the previous process's build is still good. */
async function previousBuild(dir: string, key: string): Promise<string | undefined> {
  for (const name of existsSync(dir) ? await readdir(dir) : []) {
    if (!name.startsWith(BUILD_PREFIX)) continue;
    const outdir = join(dir, name);
    const saved = await readFile(join(outdir, KEY_FILE), "utf8").catch(() => undefined);
    if (saved === key) return outdir;
  }
}

async function keep(client: DevClientState, outdir: string, key: string): Promise<void> {
  client.current = { assets: client.load(outdir), outdir, key };
  // Older builds (and any left half-written by a process that restarted mid-build) go.
  for (const name of await readdir(client.dir)) {
    if (name.startsWith(BUILD_PREFIX) && join(client.dir, name) !== outdir)
      await rm(join(client.dir, name), { recursive: true, force: true });
  }
}

/** Files beside the build's own: source maps for the browser's devtools, and what components import. */
function sideFile({ current, importedDir }: DevClientState, name: string) {
  if (!current || name !== basename(name)) return undefined;
  const path = name.endsWith(".map")
    ? join(current.outdir, name)
    : IMPORTED_ASSET.test(name)
      ? join(importedDir, name)
      : undefined;
  if (!path || !existsSync(path)) return undefined;
  return {
    body: new Uint8Array(readFileSync(path)),
    type: name.endsWith(".map") ? "application/json; charset=utf-8" : Bun.file(path).type,
  };
}
