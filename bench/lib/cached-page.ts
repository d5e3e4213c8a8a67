// cached-page.ts: the items page kept in the render cache (`/cached/items`, cached for an hour) under wrk, against the
// reference rendering the same page for every request and the static ceiling sending its bytes as one fixed string;
// with proof that wrk's answers were the cache's (x-cache on a sample, the cache's own counts over the load) and the
// whole page (its <main> against the reference's).
import { join } from "node:path";
import type { CacheStats } from "../../src/server/cache/render-cache.ts";
import type { BenchServers } from "./bench-servers.ts";
import { mainOf } from "./page-main.ts";
import type { Child } from "./proc.ts";
import { measureInTurns, type Endpoint, type Measurement, type MeasureOptions } from "./throughput.ts";

export const CACHED_PATH = "/cached/items";
/** Answers whose x-cache is read before the load. */
const SAMPLE = 20;

/** The cache's lookups of one server over the load (warm-ups included). */
export interface Lookups {
  hits: number;
  staleHits: number;
  misses: number;
}

export interface CachedPageResult {
  /** Brisk's servers, the reference and the ceiling, on CACHED_PATH. */
  measurements: Measurement[];
  /** The x-cache header of SAMPLE answers before the load, per Brisk server. */
  sample: Record<string, string[]>;
  lookups: Record<string, Lookups>;
  bytes: { brisk: number; reference: number };
  /** Brisk's kept answer and the reference's rendering have the same <main>. */
  sameMain: boolean;
}

/** `/healthz`'s render-cache figures. */
export async function renderCacheStats(origin: string): Promise<CacheStats> {
  const res = await fetch(`${origin}/healthz`, { headers: { accept: "application/json" } });
  const { renderCache } = (await res.json()) as { renderCache?: CacheStats };
  if (!renderCache) throw new Error(`${origin}/healthz gave no renderCache figures`);
  return renderCache;
}

/** The static ceiling sending Brisk's kept answer of CACHED_PATH (fetched once) as one fixed string. */
export async function startCachedCeiling(fleet: BenchServers, brisk: Child, workDir: string): Promise<Child> {
  const file = join(workDir, "cached-page.html");
  await Bun.write(file, await fetch(brisk.origin + CACHED_PATH).then((res) => res.text()));
  return fleet.start("static ceiling (cached page)", "static-server.ts", { BENCH_STATIC_HTML: file });
}

async function xCacheOf(origin: string): Promise<string> {
  const res = await fetch(origin + CACHED_PATH);
  await res.arrayBuffer();
  return `${res.status} ${res.headers.get("x-cache") ?? "no x-cache"}`;
}

async function sampleOf(origin: string): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < SAMPLE; i++) seen.push(await xCacheOf(origin));
  return seen;
}

const lookupsBetween = (before: CacheStats, after: CacheStats): Lookups => ({
  hits: after.hits - before.hits,
  staleHits: after.staleHits - before.staleHits,
  misses: after.misses - before.misses,
});

/**
 * Each of `brisk` keeps the page (its first answer is rendered), then all take turns under wrk with the reference
 * and the ceiling. `turns`: as the rest of the bench measures (warm-up, seconds, slices, work folder).
 */
export async function measureCachedPage(
  brisk: readonly Child[],
  reference: Child,
  ceiling: Child,
  turns: Omit<MeasureOptions, "pathFor" | "headers" | "beforeRun">,
): Promise<CachedPageResult> {
  const sample: Record<string, string[]> = {};
  const before = new Map<string, CacheStats>();
  for (const server of brisk) {
    await xCacheOf(server.origin);
    sample[server.name] = await sampleOf(server.origin);
    before.set(server.name, await renderCacheStats(server.origin));
  }
  const [first, ...others] = brisk as [Child, ...Child[]];
  const sides: Endpoint[] = [first, reference, ...others, ceiling];
  const measurements = await measureInTurns(sides, CACHED_PATH, turns);
  const lookups: Record<string, Lookups> = {};
  for (const server of brisk)
    lookups[server.name] = lookupsBetween(before.get(server.name)!, await renderCacheStats(server.origin));
  const [briskHtml, referenceHtml] = await Promise.all(
    [first, reference].map((s) => fetch(s.origin + CACHED_PATH).then((res) => res.text())),
  );
  const main = mainOf(briskHtml!);
  return {
    measurements,
    sample,
    lookups,
    bytes: { brisk: Buffer.byteLength(briskHtml!), reference: Buffer.byteLength(referenceHtml!) },
    sameMain: main !== undefined && main === mainOf(referenceHtml!),
  };
}
