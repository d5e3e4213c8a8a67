// public-files.ts: the app's `public/` folder served at the site root (/robots.txt, /favicon.ico), with
// validators instead of hashed names: ETag and Last-Modified, 304 on a match, revalidated on every use.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { etagMatches } from "./conditional.ts";

export interface PublicFile {
  /** Where the bytes are: under the build's `public/` (embedded in the binary) or the source folder. */
  path: string;
  /** Last modification, in ms since the epoch, as the build or the file system saw it. */
  mtimeMs: number;
}

/** The files that exist, by URL path (`/robots.txt`). Only these are ever served, so no path can climb out. */
export type PublicListing = ReadonlyMap<string, PublicFile>;

export interface PublicFiles {
  find(pathname: string): PublicFile | undefined;
}

/** The listing of a folder, as the build records it and as development reads it. */
export function listPublicDir(dir: string): Map<string, PublicFile> {
  const listing = new Map<string, PublicFile>();
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return listing; // No public/ folder: nothing to serve.
  }
  for (const name of entries) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isFile()) listing.set(`/${name.split("\\").join("/")}`, { path, mtimeMs: stat.mtimeMs });
  }
  return listing;
}

/** A fixed listing: production, where the build decided what exists. */
export function fixedPublicFiles(listing: PublicListing): PublicFiles {
  return { find: (pathname) => listing.get(pathname) };
}

/** Development: the folder is read on each lookup, so a file added or edited shows without a restart. */
export function livePublicFiles(dir: string): PublicFiles {
  return { find: (pathname) => listPublicDir(dir).get(pathname) };
}

const CACHE_CONTROL = "public, max-age=0, must-revalidate";

interface Validated {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
  mtimeMs: number;
  type: string;
  lastModified: string;
}

/**
 * The answer for a public file, or undefined (at once, with no promise to wait for: most requests are
 * pages) when the path is not one. Bytes, their ETag and the headers derived from the file are kept per
 * file and modification time: public files are few and small (an icon, robots.txt).
 */
export function createPublicFileHandler(files: PublicFiles): (request: Request, pathname: string) => Promise<Response> | undefined {
  const cache = new Map<string, Validated>();
  const load = async (file: PublicFile): Promise<Validated> => {
    const cached = cache.get(file.path);
    if (cached && cached.mtimeMs === file.mtimeMs) return cached;
    const blob = Bun.file(file.path);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const lastModified = new Date(Math.floor(file.mtimeMs / 1000) * 1000).toUTCString();
    const loaded = { bytes, etag: `"${Bun.hash(bytes).toString(36)}"`, mtimeMs: file.mtimeMs, type: blob.type, lastModified };
    cache.set(file.path, loaded);
    return loaded;
  };
  const serve = async (request: Request, file: PublicFile): Promise<Response> => {
    const { bytes, etag, mtimeMs, type, lastModified } = await load(file);
    const headers: Record<string, string> = { "content-type": type, "cache-control": CACHE_CONTROL, etag, "last-modified": lastModified };
    if (notModified(request, etag, mtimeMs)) return new Response(null, { status: 304, headers });
    return new Response(request.method === "HEAD" ? null : bytes, { headers });
  };
  return (request, pathname) => {
    const file = files.find(pathname);
    return file ? serve(request, file) : undefined;
  };
}

/** RFC 9110: If-None-Match wins over If-Modified-Since when both are sent. */
function notModified(request: Request, etag: string, mtimeMs: number): boolean {
  const match = request.headers.get("if-none-match");
  if (match !== null) return etagMatches(match, etag);
  const since = Date.parse(request.headers.get("if-modified-since") ?? "");
  return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

