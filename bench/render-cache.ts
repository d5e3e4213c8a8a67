// render-cache.ts: `bun bench/render-cache.ts [page] [shell] [replicas] [memory]` (all four without arguments): the
// figures of issue 39 that `bun run bench` measures, alone, in a few minutes. page: `/cached/items` under wrk against
// the reference and the static ceiling (lib/cached-page.ts); shell: the partly prerendered `/shell/items` against the
// reference (lib/shell-page.ts); replicas: 100 writes on one server seen on another through PostgreSQL
// (lib/replica-invalidation.ts); memory: 100,000 distinct URLs at a few budgets (lib/cache-memory.ts). Prints the
// figures next to their targets (lib/render-cache-report.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { benchServers, type BenchServers } from "./lib/bench-servers.ts";
import { scanEachBudget } from "./lib/cache-memory.ts";
import { measureCachedPage, startCachedCeiling } from "./lib/cached-page.ts";
import { LOAD_CORE, pinSelf } from "./lib/proc.ts";
import { measureShellPage } from "./lib/shell-page.ts";
import {
  CACHED_OFF,
  CACHED_ON,
  CACHED_REFERENCE,
  renderCacheReport,
  type RenderCacheResults,
} from "./lib/render-cache-report.ts";
import { measureReplicaInvalidation, REPLICA_WRITES } from "./lib/replica-invalidation.ts";

const PARTS = ["page", "shell", "replicas", "memory"] as const;
const asked = process.argv.slice(2);
const unknown = asked.filter((part) => !(PARTS as readonly string[]).includes(part));
if (unknown.length) throw new Error(`unknown part ${unknown.join(", ")}: expected any of ${PARTS.join(", ")}`);
const wanted = (part: (typeof PARTS)[number]) => asked.length === 0 || asked.includes(part);
const SECONDS = Number(Bun.env.BENCH_SECONDS ?? 10);
/** Errors only, and none happen: nothing is ever sent to this DSN, where nothing listens. */
const SENTRY = { SENTRY_DSN: "http://publickey@127.0.0.1:9/42" };
const say = (message: string) => console.error(`render-cache: ${message}`);

/** The cached page and the partly prerendered one under wrk, as asked, on the same servers. */
async function measurePages(fleet: BenchServers, work: string, results: RenderCacheResults): Promise<void> {
  const reference = await fleet.start(CACHED_REFERENCE, "reference-server.tsx");
  const on = await fleet.start(CACHED_ON, "brisk-server.ts", SENTRY);
  const off = await fleet.start(CACHED_OFF, "brisk-server.ts");
  const turns = { warmupSeconds: 3, seconds: SECONDS, slices: Math.min(5, SECONDS), workDir: work };
  if (wanted("page")) {
    say("the cached page under wrk");
    const ceiling = await startCachedCeiling(fleet, off, work);
    results.page = await measureCachedPage([on, off], reference, ceiling, turns);
  }
  if (wanted("shell")) {
    say("the partly prerendered page under wrk");
    results.shell = await measureShellPage([on, off], reference, turns);
  }
  await fleet.stopAll();
}

pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-render-cache-"));
const clientDir = join(work, "client");
const fleet = benchServers(work, clientDir);
try {
  await buildClient({ outdir: clientDir, appModule: BENCH_APP });
  const results: RenderCacheResults = {};
  if (wanted("page") || wanted("shell")) await measurePages(fleet, work, results);
  if (wanted("replicas")) {
    say(`${REPLICA_WRITES} writes on one replica, seen on the other`);
    results.replicas = await measureReplicaInvalidation(fleet, join(work, "replicas-data"), REPLICA_WRITES);
  }
  if (wanted("memory")) results.memory = await scanEachBudget(fleet, say);
  console.log(renderCacheReport(results));
} finally {
  await fleet.stopAll();
  await rm(work, { recursive: true, force: true });
}
