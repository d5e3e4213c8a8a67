// render-cache.ts: the answers of routes marked `cache`, kept in memory by key (cache-key.ts) within a byte budget,
// least recently used out first, with an index by tag and by path for revalidateTag and revalidatePath. It only
// keeps and finds: what may be kept is answer-capture.ts's decision, how a kept answer is sent cached-step.ts's.
import type { Invalidation, InvalidationBus, RenderCacheControl } from "./invalidation.ts";
import type { StoredAnswer } from "./stored-answer.ts";

/** One kept answer. */
export interface CacheEntry {
  readonly key: string;
  /** The page's pathname, which revalidatePath names. */
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

export interface RenderCache extends RenderCacheControl {
  /** The entry for a key, fresh or stale, counted as a hit or a miss; undefined when none may be served. */
  find(key: string, now?: number): CacheEntry | undefined;
  /**
   * Keeps an entry, if it was rendered from the cache's state as it is now (`since`, what `generation()` said
   * when its render began: an invalidation during the render leaves it out) and fits.
   */
  keep(entry: CacheEntry, since: number): boolean;
  /** Changes on every invalidation, whatever it drops. */
  generation(): number;
  stats(): CacheStats;
  /** The most one answer may hold: an eighth of the budget, so a few huge pages do not push out every other. */
  readonly maxEntryBytes: number;
  /** The bus that carries this cache's invalidations to other instances, once one is connected (app-start.ts). */
  bus?: InvalidationBus;
}

/** What one entry costs beyond its bytes: its key and path twice (the map and the indexes), the objects. */
const ENTRY_OVERHEAD = 512;

interface State {
  readonly budget: number;
  /** Insertion order is use order: the first is the least recently used. */
  readonly entries: Map<string, CacheEntry>;
  readonly byTag: Map<string, Set<string>>;
  readonly byPath: Map<string, Set<string>>;
  bytes: number;
  generation: number;
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

function invalidate(state: State, invalidation: Invalidation): void {
  state.generation++;
  const [index, names] = "tags" in invalidation ? [state.byTag, invalidation.tags] : [state.byPath, invalidation.paths];
  for (const name of names)
    for (const key of index.get(name) ?? []) {
      drop(state, key);
      state.counts.invalidated++;
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
    generation: 0,
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
    keep(entry, since) {
      if (since !== state.generation || entry.bytes + ENTRY_OVERHEAD > maxEntryBytes) return false;
      add(state, { ...entry, bytes: entry.bytes + ENTRY_OVERHEAD });
      state.counts.stored++;
      return true;
    },
    generation: () => state.generation,
    apply: (invalidation) => invalidate(state, invalidation),
    clear() {
      state.generation++;
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
