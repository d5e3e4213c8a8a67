// sourcemaps.ts: takes the production client's source maps out of the served folder, into one that is uploaded, never served.
import { copyFile, mkdir, readdir, rm } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { debugIdOf } from "../../runtime/debug-id.ts";
import { annotateSourcemap, type SourcemapJson } from "./sourcemap-annotations.ts";

export interface SourcemapFile {
  /** The script, as served under /assets/. */
  script: string;
  debugId: string;
}

/**
 * Moves every `*.js.map` of `outdir` into `mapsDir`, with a copy of its script beside it: the pair is what
 * `sentry-cli sourcemaps upload` matches by name and debug id. Each map's `sources` are made relative to
 * `root` (`src/app/pages/ClientError.tsx`, not `../../src/…`), so a resolved frame names the project file
 * wherever the build ran, and it gets the names and ignore list Sentry reads (sourcemap-annotations.ts). A
 * script whose debug id differs from its map's fails the build: Sentry would never pair them.
 */
export async function moveSourcemaps(outdir: string, mapsDir: string, root: string): Promise<SourcemapFile[]> {
  await rm(mapsDir, { recursive: true, force: true });
  await mkdir(mapsDir, { recursive: true });
  const maps = (await readdir(outdir)).filter((f) => f.endsWith(".js.map"));
  return Promise.all(
    maps.map(async (file) => {
      const script = file.slice(0, -".map".length);
      const map = (await Bun.file(join(outdir, file)).json()) as SourcemapJson & { debugId?: string };
      const code = await Bun.file(join(outdir, script)).text();
      const debugId = debugIdOf(code);
      if (!debugId || debugId !== map.debugId) {
        throw new Error(`${script}: its debug id (${debugId}) is not its source map's (${map.debugId})`);
      }
      map.sources = map.sources.map((source) => relative(root, resolve(dirname(join(outdir, file)), source)));
      await Bun.write(join(mapsDir, file), JSON.stringify(annotateSourcemap(map, code)));
      await copyFile(join(outdir, script), join(mapsDir, script));
      await rm(join(outdir, file));
      return { script, debugId };
    }),
  );
}
