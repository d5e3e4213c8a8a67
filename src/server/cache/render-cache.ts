// render-cache.ts: the answers of routes marked `cache`, kept in memory by key (cache-key.ts) within a byte budget,
// least recently used out first, with an index by tag and by path for revalidateTag and revalidatePath. It only
// keeps and finds: what may be kept is answer-capture.ts's decision, how a kept answer is sent cached-step.ts's.
import type { Invalidation, InvalidationBus, RenderCacheControl } from "./invalidation.ts";
import type { StoredAnswer } from "./stored-answer.ts";

/** One kept answer. */
export interface CacheEntry {
  readonly key: string;
  /** The page's pathname as canonicalPath gives it: what revalidatePath names. */
  readonly path: string;
  readonly tags: readonly string[];
  /** When it was rendered, in ms since the epoch. */
  readonly storedAt: number;
  /** Until when it is fresh, then until when it may still be served stale, in ms since the epoch. */
  readonly freshUntil: number;
  readonly staleUntil: number;
  /** The request URL that rendered it: a stale answer is rendered again from it, without the visitor's headers. */
  readonly href: string;
  readonly answer: StoredAnswer;
  /** What it holds in memory, as stored-answer.ts counts it. */
  readonly bytes: number;
}

export interface CacheStats {
  entries: number;
  bytes: number;
  budget: number;
  hits: number;
  staleHits: number;
  misses: number;
  stored: number;
  evicted: number;
  invalidated: number;
  /** Hits (fresh or stale) over all lookups, 0 before the first. */
  hitRate: number;
}

/**
 * A render that may be kept, from before its middleware ran to its last byte: an invalidation of its tags or its
 * path meanwhile spoils it, as what it read may be older than the write.
 */
export interface Render {
  readonly tags: readonly string[];
  /** Its path as the path index holds it (canonicalPath). */
  readonly path: string;
  readonly began: number;
  spoiled: boolean;
}

export interface RenderCache extends RenderCacheControl {
  /** The entry for a key, fresh or stale, counted as a hit or a miss; undefined when none may be served. */
  find(key: string, now?: number): CacheEntry | undefined;
  /** A render of a page under `tags` at `path` begins: watched for invalidations until it is kept or ended. */
  begin(tags: readonly string[], path: string): Render;
  /** Keeps the entry its render made, unless an invalidation spoiled that render or it does not fit; ends it. */
  keep(entry: CacheEntry, render: Render): boolean;
  /** A render that will not be kept (refused, cancelled, failed): no longer watched. */
  end(render: Render): void;
  /**
   * Reserves `bytes` for a render's copy of what it sends, within a quarter of the budget for all of them together;
   * false when there is no room: that render is then not kept.
   */
  reserveCopy(bytes: number): boolean;
  releaseCopy(bytes: number): void;
  stats(): CacheStats;
  /** The most one answer may hold: an eighth of the budget, so a few huge pages do not push out every other. */
  readonly maxEntryBytes: number;
  /** The bus that carries this cache's invalidations to other instances, once one is connected (app-start.ts). */
  bus?: InvalidationBus;
}

/**
 * What one entry costs beyond its answer's bytes and its strings (key, path, href): its objects, the index sets and
 * map slots, its headers (measured: about 1.5 KB).
 */
const ENTRY_OVERHEAD = 1536;

/** The most a render may take to reach its end and still be kept: one left unended longer is forgotten. */
const MAX_RENDER_MS = 5 * 60_000;

/**
 * The path revalidatePath names and the path index keys: routes match whatever the case, with or without a trailing
 * slash, and with their params percent-decoded, so `/Memo/`, `/memo` and `/m%65mo` drop together.
 */
export function canonicalPath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {}
  return path.toLowerCase().replace(/\/+$/, "") || "/";
}

interface State {
  readonly budget: number;
  /** Insertion order is use order: the first is the least recently used. */
  readonly entries: Map<string, CacheEntry>;
  readonly byTag: Map<string, Set<string>>;
  readonly byPath: Map<string, Set<string>>;
  bytes: number;
  /** The bytes of the copies renders in flight are making. */
  copying: number;
  readonly renders: Set<Render>;
  counts: Omit<CacheStats, "entries" | "bytes" | "budget" | "hitRate">;
}

function indexed(index: Map<string, Set<string>>, name: string, key: string, add: boolean): void {
  let keys = index.get(name);
  if (add) {
    if (!keys) index.set(name, (keys = new Set()));
    keys.add(key);
  } else if (keys?.delete(key) && keys.size === 0) index.delete(name);
}

function drop(state: State, key: string): void {
  const entry = state.entries.get(key);
  if (!entry) return;
  state.entries.delete(key);
  state.bytes -= entry.bytes;
  for (const tag of entry.tags) indexed(state.byTag, tag, key, false);
  indexed(state.byPath, entry.path, key, false);
}

function add(state: State, entry: CacheEntry): void {
  drop(state, entry.key);
  state.entries.set(entry.key, entry);
  state.bytes += entry.bytes;
  for (const tag of entry.tags) indexed(state.byTag, tag, entry.key, true);
  indexed(state.byPath, entry.path, entry.key, true);
  for (const oldest of state.entries.keys()) {
    if (state.bytes <= state.budget) break;
    drop(state, oldest);
    state.counts.evicted++;
  }
}

/** Drops the answers an invalidation names, and spoils the renders under way that would show what it names. */
function invalidate(state: State, invalidation: Invalidation): void {
  const byTag = "tags" in invalidation;
  const names = new Set(byTag ? invalidation.tags : invalidation.paths.map(canonicalPath));
  for (const render of state.renders)
    if (byTag ? render.tags.some((tag) => names.has(tag)) : names.has(render.path)) render.spoiled = true;
  const index = byTag ? state.byTag : state.byPath;
  for (const name of names)
    for (const key of index.get(name) ?? []) {
      drop(state, key);
      state.counts.invalidated++;
    }
}

/** Forgets renders never ended (a response no one read): they are spoiled, and no longer watched. */
function forgetStale(state: State, now: number): void {
  for (const render of state.renders) {
    if (now - render.began < MAX_RENDER_MS) break;
    render.spoiled = true;
    state.renders.delete(render);
  }
}

/** A cache of at most `budget` bytes; 0 keeps nothing. */
export function createRenderCache(budget: number): RenderCache {
  const state: State = {
    budget,
    entries: new Map(),
    byTag: new Map(),
    byPath: new Map(),
    bytes: 0,
    copying: 0,
    renders: new Set(),
    counts: { hits: 0, staleHits: 0, misses: 0, stored: 0, evicted: 0, invalidated: 0 },
  };
  const maxEntryBytes = Math.floor(budget / 8);
  return {
    maxEntryBytes,
    find(key, now = Date.now()) {
      const entry = state.entries.get(key);
      if (!entry || now >= entry.staleUntil) {
        if (entry) drop(state, key);
        state.counts.misses++;
        return undefined;
      }
      // Used now: to the end of the order.
      state.entries.delete(key);
      state.entries.set(key, entry);
      if (now < entry.freshUntil) state.counts.hits++;
      else state.counts.staleHits++;
      return entry;
    },
    begin(tags, path) {
      const now = Date.now();
      forgetStale(state, now);
      const render: Render = { tags, path, began: now, spoiled: false };
      state.renders.add(render);
      return render;
    },
    keep(entry, render) {
      state.renders.delete(render);
      const bytes = entry.bytes + entry.key.length + entry.path.length + entry.href.length + ENTRY_OVERHEAD;
      if (render.spoiled || bytes > maxEntryBytes) return false;
      add(state, { ...entry, bytes });
      state.counts.stored++;
      return true;
    },
    end: (render) => void state.renders.delete(render),
    reserveCopy(bytes) {
      if (state.copying + bytes > budget / 4) return false;
      state.copying += bytes;
      return true;
    },
    releaseCopy: (bytes) => void (state.copying -= bytes),
    apply: (invalidation) => invalidate(state, invalidation),
    clear() {
      for (const render of state.renders) render.spoiled = true;
      state.counts.invalidated += state.entries.size;
      state.entries.clear();
      state.byTag.clear();
      state.byPath.clear();
      state.bytes = 0;
    },
    stats() {
      const { hits, staleHits, misses } = state.counts;
      const lookups = hits + staleHits + misses;
      return {
        entries: state.entries.size,
        bytes: state.bytes,
        budget: state.budget,
        ...state.counts,
        hitRate: lookups ? (hits + staleHits) / lookups : 0,
      };
    },
  };
}
