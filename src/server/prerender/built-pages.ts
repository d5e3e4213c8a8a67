// built-pages.ts: the pages `bun run build` prerendered (scripts/prerender.ts), kept beside the client build as
// one JSON file, and read back by a server on that very build.
import type { ClientAssets } from "../assets/assets.ts";
import type { PrerenderedPages } from "./prerendered-page.ts";

/** Beside the client build's own files, and not one of them: never served as an asset. */
export const PRERENDERED_FILE = "prerendered.json";

/** The build's prerendered pages, when it made them for this client build (another build's are stale). */
export function builtPages(assets: ClientAssets): PrerenderedPages | undefined {
  const text = assets.builtFile?.(PRERENDERED_FILE);
  if (text === undefined) return undefined;
  const pages = JSON.parse(text) as PrerenderedPages;
  return pages.buildId === assets.manifest.buildId ? pages : undefined;
}
