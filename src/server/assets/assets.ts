// assets.ts: the client build, loaded once into memory and served under /assets/ with long-lived caching.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Elysia } from "elysia";
import { isLazyPage } from "../../runtime/lazy-page.ts";
import type { RouteDefinition } from "../../runtime/route.ts";
import { routeTree, type RouteMatch, type RouteNode } from "../../runtime/route-tree.ts";
import type { RouteAssets } from "../../runtime/page-payload.ts";
import type { Manifest } from "./manifest.ts";
import { encodedBody, etagOfForm, type Precompressed } from "./precompressed.ts";
import { conditionalResponse } from "../http/conditional.ts";
import { fixedPublicFiles, type PublicFiles } from "./public-files.ts";
import { text, type Bytes } from "../request/responses.ts";

export const ASSETS_PREFIX = "/assets/";

interface Asset extends Precompressed {
  type: string;
}

export interface ClientAssets {
  manifest: Manifest;
  entryUrl: string;
  /** The stylesheets and scripts a route needs before it renders. */
  /** The matched routes' stylesheets and chunks on top of every page's. */
  forMatch(match: RouteMatch | null): RouteAssets;
  get(name: string): Asset | undefined;
  /** The app's public files as this build copied them. */
  publicFiles: PublicFiles;
  /** The text of the app stylesheets every page carries inline, by URL (none in development). */
  inlineStyles?: ReadonlyMap<string, string>;
  /**
   * The text of a file a build step wrote beside the assets and that is none of them (never served), if it is
   * there: the pages the build prerendered.
   */
  builtFile?(name: string): string | undefined;
}

/**
 * An app stylesheet up to this size goes into the page's head instead of a link: its bytes (fewer still once the
 * page is compressed) cost less than the round trip a link costs before the first paint.
 * A larger one is better fetched once and cached.
 */
export const INLINE_STYLE_MAX_BYTES = 4096;

/**
 * The app stylesheets a production page inlines: the leading ones within the limit, in order, so the
 * cascade keeps the build's order (the inlined ones come first). A development build keeps links, which
 * the dev server swaps when a stylesheet is rebuilt.
 */
function inlinedStyles(manifest: Manifest, read: (name: string) => Bytes): Map<string, string> {
  const inline = new Map<string, string>();
  if (manifest.mode !== "production") return inline;
  for (const name of manifest.css) {
    const body = read(name);
    if (body.byteLength > INLINE_STYLE_MAX_BYTES) break;
    inline.set(url(name), new TextDecoder().decode(body));
  }
  return inline;
}

/**
 * Where the client build lives: beside the code in a compiled binary (scripts/build.ts embeds dist/client
 * as `client/…`), or in dist/client when running from source.
 */
function findClientDir(): string {
  const candidates = [join(import.meta.dir, "client"), join(import.meta.dir, "../../../dist/client")];
  const dir = candidates.find((d) => existsSync(join(d, "manifest.json")));
  if (!dir) throw new Error(`no client build found (looked in ${candidates.join(", ")}); run \`bun run build:client\``);
  return dir;
}

const url = (file: string) => ASSETS_PREFIX + file;

/** What a route adds to its pages' assets: its own stylesheets, and the chunks of a code-split component. */
function routeAssets({ route, id }: RouteNode, manifest: Manifest): Pick<RouteAssets, "css" | "js"> {
  const css = (route.styles ?? []).map((s) => {
    const file = manifest.styles[s];
    if (!file) throw new Error(`route ${id}: stylesheet ${s} is not in the client build`);
    return url(file);
  });
  return { css, js: lazyPageChunks(route, id, manifest).map(url) };
}

function lazyPageChunks({ component }: RouteDefinition, id: string, manifest: Manifest): string[] {
  if (!isLazyPage(component)) return [];
  const files = manifest.lazyPages[component.module];
  if (!files) throw new Error(`route ${id}: the chunk of ${component.module} is not in the client build`);
  return files;
}

/** `routes` are checked against the build here, so a build without a route's stylesheet or chunk fails at start-up. */
export function loadClientAssets(routes: readonly RouteDefinition[], dir: string = findClientDir()): ClientAssets {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
  const read = (name: string): Bytes => new Uint8Array(readFileSync(join(dir, name)));
  const variant = (name: string, encoding: "br" | "gzip") => `${name}.${encoding === "br" ? "br" : "gz"}`;
  // Each file is read on its first request and kept: none is needed before the first page has gone
  // out, so reading them all at start-up only delayed it. The manifest names them, so a name that is
  // not in the build never touches the disk.
  const loaded = new Map<string, Asset>();
  const listed = new Set(manifest.files);
  // A build with a file missing fails here, at start-up, rather than as a 500 on the first visit.
  const missing = manifest.files
    .flatMap((name) => [name, ...(manifest.compressed[name] ?? []).map((e) => variant(name, e))])
    .filter((name) => !existsSync(join(dir, name)));
  if (missing.length) throw new Error(`client build in ${dir} is incomplete: ${missing.join(", ")} missing`);
  const load = (name: string): Asset | undefined => {
    if (!listed.has(name)) return undefined;
    const encodings = manifest.compressed[name] ?? [];
    const asset: Asset = {
      body: read(name),
      br: encodings.includes("br") ? read(variant(name, "br")) : undefined,
      gzip: encodings.includes("gzip") ? read(variant(name, "gzip")) : undefined,
      // Scripts, stylesheets, and what components import (images, fonts): Bun knows their types by extension.
      type: Bun.file(name).type,
    };
    loaded.set(name, asset);
    return asset;
  };
  const inlineStyles = inlinedStyles(manifest, read);
  const base: RouteAssets = { css: manifest.css.map(url).slice(inlineStyles.size), js: manifest.preload.map(url) };
  if (inlineStyles.size) base.inline = [...inlineStyles.keys()];
  const own = new WeakMap<RouteDefinition, Pick<RouteAssets, "css" | "js">>();
  const ownAssets = (node: RouteNode) => {
    let found = own.get(node.route);
    if (!found) own.set(node.route, (found = routeAssets(node, manifest)));
    return found;
  };
  // Every route's, at start-up: a build without one of them fails here.
  for (const node of routeTree(routes).nodes) ownAssets(node);
  const perBranch = new WeakMap<RouteDefinition, RouteAssets>();
  const forMatch = (match: RouteMatch | null): RouteAssets => {
    if (!match) return base;
    let found = perBranch.get(match.route);
    if (!found) {
      const levels = match.levels.map(({ node }) => ownAssets(node));
      const css = [...new Set(levels.flatMap((level) => level.css))];
      const js = [...new Set(levels.flatMap((level) => level.js))];
      perBranch.set(
        match.route,
        (found = css.length || js.length ? { ...base, css: [...base.css, ...css], js: [...base.js, ...js] } : base),
      );
    }
    return found;
  };
  const publicDir = join(dir, "public");
  const publicListing = new Map(
    Object.entries(manifest.public).map(([path, mtimeMs]) => [path, { path: join(publicDir, path), mtimeMs }] as const),
  );
  return {
    manifest,
    entryUrl: url(manifest.entry),
    forMatch,
    get: (name) => loaded.get(name) ?? load(name),
    publicFiles: fixedPublicFiles(publicListing),
    inlineStyles,
    builtFile(name) {
      const file = join(dir, name);
      return existsSync(file) ? readFileSync(file, "utf8") : undefined;
    },
  };
}

export function assetsPlugin(assets: ClientAssets) {
  return new Elysia({ name: "brisk:assets" }).get(`${ASSETS_PREFIX}*`, ({ params, request }) => {
    const asset = assets.get(params["*"]);
    if (!asset) {
      // A plain 404: a missing script must not be answered with an HTML page the browser tries to run.
      return text(404, "asset not found");
    }
    const [encoding, body] = encodedBody(asset, request.headers.get("accept-encoding"));
    const etag = etagOfForm(body);
    const headers: Record<string, string> = {
      "content-type": asset.type,
      // Every file name carries its content hash, so a name never changes meaning.
      "cache-control": "public, max-age=31536000, immutable",
      vary: "Accept-Encoding",
      etag,
    };
    const conditional = conditionalResponse(request, { etag }, headers);
    if (conditional) return conditional;
    if (encoding) headers["content-encoding"] = encoding;
    return new Response(body, { headers });
  });
}
