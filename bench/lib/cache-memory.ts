// cache-memory.ts: the render cache's memory under a scan of distinct URLs: a fresh server (Sentry off) with a given
// RENDER_CACHE_MAX_BYTES is asked for `/cached/items?q=<n>` for n up to SCAN_URLS, each a key of its own, so the cache
// fills to its budget and then evicts. The cache's own count of its bytes must stay within the budget; the process's
// RSS, against a run with the cache off (a budget of 0), says what the kept answers cost beyond that count.
import type { CacheStats } from "../../src/server/cache/render-cache.ts";
import type { BenchServers } from "./bench-servers.ts";
import { CACHED_PATH, renderCacheStats } from "./cached-page.ts";
import { cpuSecondsOf, memoryOf } from "./proc.ts";

export const SCAN_URLS = Number(Bun.env.BENCH_SCAN_URLS ?? 100_000);
/** The budgets scanned: a small one (the case), the default, and none (what the scan costs without a cache). */
const SCAN_BUDGETS = [8 * 1_048_576, 32 * 1_048_576, 0] as const;
/** Requests in flight from the bench: enough to keep the server's one core busy. */
const CONCURRENCY = 16;
/** How many times the server's memory is read during the scan. */
const CHECKPOINTS = 10;
/** The server idles this long after its start, and after the scan, before its memory is read. */
const SETTLE_MS = 2_000;

export interface Memory {
  rssMiB: number;
  peakMiB: number;
}

export interface MemoryScan {
  budget: number;
  urls: number;
  seconds: number;
  /** Answers other than 200. */
  failed: number;
  /** The share of its core the server used over the scan: below 1, the bench's requests were the limit. */
  serverCpu: number;
  /** After the start, before the scan. */
  idle: Memory;
  /** Each tenth of the way through the scan: flat once the cache is full, if it holds no more than its budget. */
  during: Memory[];
  /** Right after the last answer, and again after SETTLE_MS (peak: the whole life, the scan's own). */
  after: Memory;
  settled: Memory;
  stats: CacheStats;
}

/**
 * Asks for `urls` distinct URLs of the cached page, CONCURRENCY at a time, reading the server's memory each tenth of
 * the way; the count of answers other than 200.
 */
async function scan(origin: string, urls: number, pid: number, during: Memory[]): Promise<number> {
  let next = 0;
  let done = 0;
  let failed = 0;
  const worker = async () => {
    while (next < urls) {
      const res = await fetch(`${origin}${CACHED_PATH}?q=${next++}`);
      await res.arrayBuffer();
      if (res.status !== 200) failed++;
      if (++done % Math.ceil(urls / CHECKPOINTS) === 0) during.push(memoryOf(pid));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failed;
}

/** One fresh server with `budget` bytes of render cache, scanned, then stopped. */
export async function scanAtBudget(fleet: BenchServers, budget: number, urls = SCAN_URLS): Promise<MemoryScan> {
  const server = await fleet.start(`brisk, render cache ${budget} B`, "brisk-server.ts", {
    RENDER_CACHE_MAX_BYTES: String(budget),
  });
  try {
    await Bun.sleep(SETTLE_MS);
    const idle = memoryOf(server.pid);
    const started = performance.now();
    const cpuBefore = cpuSecondsOf(server.pid);
    const during: Memory[] = [];
    const failed = await scan(server.origin, urls, server.pid, during);
    const seconds = (performance.now() - started) / 1000;
    const serverCpu = (cpuSecondsOf(server.pid) - cpuBefore) / seconds;
    const after = memoryOf(server.pid);
    await Bun.sleep(SETTLE_MS);
    const settled = memoryOf(server.pid);
    return {
      budget,
      urls,
      seconds,
      failed,
      serverCpu,
      idle,
      during,
      after,
      settled,
      stats: await renderCacheStats(server.origin),
    };
  } finally {
    await server.stop();
  }
}

/** A fresh server for each of SCAN_BUDGETS, scanned in turn. */
export async function scanEachBudget(fleet: BenchServers, say: (message: string) => void): Promise<MemoryScan[]> {
  const scans: MemoryScan[] = [];
  for (const budget of SCAN_BUDGETS) {
    say(`${SCAN_URLS.toLocaleString("en-US")} distinct URLs with a render cache of ${budget} B`);
    scans.push(await scanAtBudget(fleet, budget));
  }
  return scans;
}
