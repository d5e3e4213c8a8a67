// manifest.ts: the client build's manifest, written by scripts/build-client.ts and read by the server.
import type { Mode } from "../../runtime/app-server.ts";

/**
 * The browser's tracing code: an entry of the client build of its own (in `chunks`), which the Sentry chunk
 * imports by the URL the page config gives it, only when tracing is on. Nothing in the bundle imports it, so
 * pages without tracing download none of it.
 */
export const TRACING_MODULE = "src/runtime/browser/browser-tracing.ts";

export interface Manifest {
  /** Changes whenever any client file changes; page data carries it to detect deploy skew. */
  buildId: string;
  /** The build's own mode: a test run serves a production build. */
  mode: Exclude<Mode, "test">;
  /** The client entry module. */
  entry: string;
  /** Chunks the entry imports statically: preloaded so they do not wait for the entry to parse. */
  preload: string[];
  /** Stylesheets every page needs. */
  css: string[];
  /** Route and app stylesheets: path relative to the app's folder → hashed file. */
  styles: Record<string, string>;
  /** Code-split modules: source path → hashed chunk. */
  chunks: Record<string, string>;
  /**
   * Code-split pages: `lazyPage` module (relative to the app's folder) → its chunk and the chunks that one imports
   * statically, less the entry's own: what a page of that route preloads.
   */
  lazyPages: Record<string, string[]>;
  /** Every servable file, all content-hashed. */
  files: string[];
  /** The app's public files, copied under `public/`: URL path (`/robots.txt`) → modification time in ms. */
  public: Record<string, number>;
  /** Precompressed siblings (`file.br`, `file.gz`) that exist. */
  compressed: Record<string, Array<"br" | "gzip">>;
}
