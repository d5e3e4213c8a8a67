// imported-assets.ts: `import logo from "../http/logo.svg"` gives the same hashed `/assets/…` URL on both sides.
// The client build emits the file under that name; the server (from source, and in the binary) gets only
// the URL. The name comes from the bytes alone, so both sides agree without sharing a build.
import type { BunPlugin } from "bun";
import { basename, join } from "node:path";
import { ASSETS_PREFIX } from "./assets.ts";

/** Files a component may import for their URL: images, icons and fonts. */
export const IMPORTED_ASSET = /\.(svg|png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf)$/;

function importedAssetName(path: string, bytes: Uint8Array): string {
  const file = basename(path);
  const dot = file.lastIndexOf(".");
  return `${file.slice(0, dot)}-${Bun.hash(bytes).toString(36).slice(0, 10)}${file.slice(dot)}`;
}

/**
 * The URL as the module's default export. With `emitTo`, the file is also written there under its hashed
 * name (the client build) and `emitted` collects the names for the manifest.
 */
export function importedAssets(emit?: { dir: string; emitted: Set<string> }): BunPlugin {
  return {
    name: "brisk:imported-assets",
    setup(build) {
      build.onLoad({ filter: IMPORTED_ASSET }, async ({ path }) => {
        const bytes = await Bun.file(path).bytes();
        const name = importedAssetName(path, bytes);
        if (emit && !emit.emitted.has(name)) {
          emit.emitted.add(name);
          await Bun.write(join(emit.dir, name), bytes);
        }
        return { contents: `export default ${JSON.stringify(ASSETS_PREFIX + name)};`, loader: "js" };
      });
    },
  };
}
