// public-files.ts: the app's `public/` folder served at the site root (/robots.txt, /favicon.ico), with
// validators instead of hashed names: ETag and Last-Modified, 304 or 412 by the preconditions, revalidated on
// every use.
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { conditionalResponse, etagOf } from "../http/conditional.ts";

export interface PublicFile {
  /** Where the bytes are: under the build's `public/` (embedded in the binary) or the source folder, symlinks resolved. */
  path: string;
  /** Last modification, in ms since the epoch, as the build or the file system saw it. */
  mtimeMs: number;
}

/**
 * The files that exist, by URL path as a file name (`/robots.txt`, `/my file.txt`). Only these are ever
 * served, so no path can climb out.
 */
export type PublicListing = ReadonlyMap<string, PublicFile>;

export interface PublicFiles {
  /** The file at a URL path once decoded (`/my file.txt`). */
  find(name: string): PublicFile | undefined;
}

/**
 * Whether a name is one the folder may hold but never serves: a segment starting with a dot (`.env`,
 * `.git/config`, `docs/.secret`), which is a tool's or an editor's file, not the site's. `.well-known/` at
 * the root is the exception: it is where the web looks for a site's own files (RFC 8615).
 */
function isHiddenName(name: string): boolean {
  return name.split("/").some((segment, i) => segment.startsWith(".") && !(i === 1 && segment === ".well-known"));
}

/**
 * The listing of a folder, as the build records it and as development reads it: its files but the hidden
 * ones, and those whose real path (symlinks followed) is inside the folder, by that real path.
 */
export function listPublicDir(dir: string): Map<string, PublicFile> {
  const listing = new Map<string, PublicFile>();
  let root: string;
  let entries: string[];
  try {
    root = realpathSync(dir);
    entries = readdirSync(root, { recursive: true, encoding: "utf8" });
  } catch {
    return listing; // No public/ folder: nothing to serve.
  }
  for (const name of entries) {
    const url = `/${name.split(sep).join("/")}`;
    if (isHiddenName(url)) continue;
    const path = realPathWithin(root, join(root, name));
    const stat = path === undefined ? undefined : statSync(path);
    if (path !== undefined && stat?.isFile()) listing.set(url, { path, mtimeMs: stat.mtimeMs });
  }
  return listing;
}

/** The file's real path when it is inside `root`; undefined for a symlink out of it or to nothing. */
function realPathWithin(root: string, path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return real.startsWith(root + sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** A fixed listing: production, where the build decided what exists. */
export function fixedPublicFiles(listing: PublicListing): PublicFiles {
  return { find: (name) => listing.get(name) };
}

/** Development: the folder is read on each lookup, so a file added or edited shows without a restart. */
export function livePublicFiles(dir: string): PublicFiles {
  return { find: (name) => listPublicDir(dir).get(name) };
}

const CACHE_CONTROL = "public, max-age=0, must-revalidate";

interface Validated {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
  mtimeMs: number;
  /** The modification time in whole seconds, as Last-Modified says it and preconditions compare it. */
  modifiedAt: number;
  type: string;
  lastModified: string;
}

/**
 * The response for a public file, or undefined (at once, with no promise to wait for: most requests are
 * pages) when the path is not one. Bytes, their ETag and the headers derived from the file are kept per
 * file and modification time: public files are few and small (an icon, robots.txt).
 */
export function createPublicFileHandler(
  files: PublicFiles,
): (request: Request, pathname: string) => Promise<Response> | undefined {
  const cache = new Map<string, Validated>();
  const load = async (file: PublicFile): Promise<Validated> => {
    const cached = cache.get(file.path);
    if (cached && cached.mtimeMs === file.mtimeMs) return cached;
    const blob = Bun.file(file.path);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const modifiedAt = Math.floor(file.mtimeMs / 1000) * 1000;
    const loaded = {
      bytes,
      etag: etagOf(bytes),
      mtimeMs: file.mtimeMs,
      modifiedAt,
      type: blob.type,
      lastModified: new Date(modifiedAt).toUTCString(),
    };
    cache.set(file.path, loaded);
    return loaded;
  };
  const serve = async (request: Request, file: PublicFile): Promise<Response> => {
    const { bytes, etag, modifiedAt, type, lastModified } = await load(file);
    const headers: Record<string, string> = {
      "content-type": type,
      "cache-control": CACHE_CONTROL,
      etag,
      "last-modified": lastModified,
    };
    const conditional = conditionalResponse(request, { etag, lastModified: modifiedAt }, headers);
    if (conditional) return conditional;
    if (request.method !== "HEAD") return new Response(bytes, { headers });
    // A body-less response is otherwise told `Content-Length: 0`; a HEAD says what the GET would send.
    return new Response(null, { headers: { ...headers, "content-length": String(bytes.byteLength) } });
  };
  return (request, pathname) => {
    const file = publicFileAt(files, pathname);
    return file ? serve(request, file) : undefined;
  };
}

/** The public file a URL path names, if there is one. */
function publicFileAt(files: PublicFiles, pathname: string): PublicFile | undefined {
  const name = fileName(pathname);
  return name === undefined ? undefined : files.find(name);
}

/**
 * The file name a URL path asks for: `/my%20file.txt` is `/my file.txt`, `/100%25.txt` is `/100%.txt`.
 * Undefined for a path no file can have: malformed percent-encoding, or an encoded `/`, `\` or NUL, which
 * would make one segment of the URL two of the folder.
 */
function fileName(pathname: string): string | undefined {
  if (!pathname.includes("%")) return pathname;
  try {
    const name = decodeURIComponent(pathname);
    return /%2f|%5c|%00/i.test(pathname) ? undefined : name;
  } catch {
    return undefined;
  }
}
