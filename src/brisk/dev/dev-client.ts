// dev-client.ts: development only: rebuilds the client when its sources change, one build at a time, and
// serves the newest good one.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ClientAssets } from "../server/assets.ts";

export type RebuildResult =
  /** built: a new build; reused: the previous process's build, still good; unchanged: nothing to do. */
  | { ok: true; ms: number; buildId: string; outcome: "built" | "reused" | "unchanged" }
  | { ok: false; error: unknown };

export interface DevClientOptions {
  /** Each build gets a fresh folder in here, so a build never writes over the files being served. */
  dir: string;
  build(outdir: string): Promise<unknown>;
  load(outdir: string): ClientAssets;
  /** Changes whenever anything the client build reads changes. */
  sourceKey(): Promise<string>;
}

export interface DevClient {
  /** Always the newest good build: the app is created once and keeps serving through rebuilds. */
  readonly assets: ClientAssets;
  /** Builds when the sources changed since the last good build, in this process or the one before it. */
  rebuild(): Promise<RebuildResult>;
}

const KEY_FILE = ".source-key";
const BUILD_PREFIX = "build-";

/**
 * What the client build reads: src/ without src/brisk/server/ (the client never imports server code), the
 * build scripts, and the files that decide how dependencies resolve and compile.
 */
export async function clientSourceKey(root: string): Promise<string> {
  const listed = await Promise.all(["src", "scripts"].map((d) => readdir(join(root, d), { recursive: true, withFileTypes: true })));
  const files = listed
    .flat()
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .filter((path) => !path.startsWith(join(root, "src/brisk/server/")))
    .concat(["package.json", "bun.lock", "tsconfig.json"].map((f) => join(root, f)).filter(existsSync))
    .sort();
  const hasher = new Bun.CryptoHasher("sha256");
  for (const path of files) hasher.update(`${path}\0`).update(await readFile(path)).update("\0");
  return hasher.digest("hex");
}

export function createDevClient({ dir, build, load, sourceKey }: DevClientOptions): DevClient {
  let current: { assets: ClientAssets; outdir: string; key: string } | undefined;
  let running: Promise<RebuildResult> | undefined;
  let queued: Promise<RebuildResult> | undefined;

  const good = () => {
    if (!current) throw new Error("the client has not built yet");
    return current;
  };

  /** After a restart for a server-only edit, the previous process's build is still good. */
  async function previousBuild(key: string): Promise<string | undefined> {
    for (const name of existsSync(dir) ? await readdir(dir) : []) {
      if (!name.startsWith(BUILD_PREFIX)) continue;
      const outdir = join(dir, name);
      const saved = await readFile(join(outdir, KEY_FILE), "utf8").catch(() => undefined);
      if (saved === key) return outdir;
    }
  }

  async function keep(outdir: string, key: string): Promise<void> {
    current = { assets: load(outdir), outdir, key };
    // Older builds (and any left half-written by a process that restarted mid-build) go.
    for (const name of await readdir(dir)) {
      if (name.startsWith(BUILD_PREFIX) && join(dir, name) !== outdir) await rm(join(dir, name), { recursive: true, force: true });
    }
  }

  async function buildOnce(): Promise<RebuildResult> {
    const started = performance.now();
    const key = await sourceKey();
    const done = (outcome: "built" | "reused" | "unchanged"): RebuildResult => ({
      ok: true,
      ms: Math.round(performance.now() - started),
      buildId: good().assets.manifest.buildId,
      outcome,
    });
    if (current?.key === key) return done("unchanged");
    const reusable = current ? undefined : await previousBuild(key);
    if (reusable) {
      await keep(reusable, key);
      return done("reused");
    }
    await mkdir(dir, { recursive: true });
    const outdir = await mkdtemp(join(dir, BUILD_PREFIX));
    try {
      await build(outdir);
      await writeFile(join(outdir, KEY_FILE), key);
      await keep(outdir, key);
      return done("built");
    } catch (error) {
      await rm(outdir, { recursive: true, force: true });
      return { ok: false, error };
    }
  }

  // Source maps are not in the manifest; devtools ask for them next to the scripts.
  function sourceMap(name: string) {
    if (!current || !name.endsWith(".map") || name.includes("/") || name.includes("\\")) return undefined;
    const path = join(current.outdir, name);
    if (!existsSync(path)) return undefined;
    return { body: new Uint8Array(readFileSync(path)), type: "application/json; charset=utf-8" };
  }

  return {
    assets: {
      get manifest() {
        return good().assets.manifest;
      },
      get entryUrl() {
        return good().assets.entryUrl;
      },
      forRoute: (route) => good().assets.forRoute(route),
      get: (name) => good().assets.get(name) ?? sourceMap(name),
      publicFiles: { find: (pathname) => good().assets.publicFiles.find(pathname) },
    },
    rebuild() {
      // Changes that arrive during a build need one more build after it, however many there were.
      if (queued) return queued;
      if (!running) return (running = buildOnce().finally(() => (running = undefined)));
      queued = running.then(() => {
        queued = undefined;
        return this.rebuild();
      });
      return queued;
    },
  };
}
