// render-cache-report.ts: the figures of issue 39 (the render cache, invalidation across replicas, partial
// prerendering) next to their targets, and the tables behind them, as `bun run bench` and `bun bench/render-cache.ts`
// print them and RESULTS.md keeps them.
import type { Memory, MemoryScan } from "./cache-memory.ts";
import { CACHED_PATH, type CachedPageResult } from "./cached-page.ts";
import { REPLICA_PATH, type ReplicaInvalidation } from "./replica-invalidation.ts";
import { markdown, verdict, type Table, type Target } from "./report.ts";
import { CPU_BOUND, boundRatioTarget, ceilingTarget, cpuPerRequest, ratioTarget } from "./results.ts";
import { SHELL_PATH, type ShellPageResult } from "./shell-page.ts";
import { int, round } from "./stats.ts";
import type { Measurement } from "./throughput.ts";

/** Whatever of the three was measured. */
export interface RenderCacheResults {
  page?: CachedPageResult;
  shell?: ShellPageResult;
  replicas?: ReplicaInvalidation;
  /** One scan per budget, 0 (the cache off) among them. */
  memory?: MemoryScan[];
}

export const CACHED_ON = "brisk, Sentry on";
export const CACHED_OFF = "brisk, Sentry off";
export const CACHED_REFERENCE = "reference";
export const CACHED_CEILING = "static ceiling (cached page)";
const PAGE_RATIO = 5;
const SHELL_RATIO = 1.5;
const SEEN_P99_MS = 1_000;
/**
 * The RSS a byte of budget may cost beyond the cache-off run: the kept bytes themselves, and as much again for what
 * the allocator and the heap keep of the answers evicted meanwhile.
 */
const RSS_PER_BUDGET = 2;

const pct = (share: number) => `${Math.round(share * 100)} %`;
const ms = (value: number) => `${round(value, 1)} ms`;
const mib = (value: number) => `${round(value, 1)} MiB`;
const budgetOf = (bytes: number) => (bytes ? mib(bytes / 1_048_576) : "0 (off)");

/** The value at or below which `p` % of `values` lie (nearest rank). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function measurementOf(result: { measurements: Measurement[] }, server: string): Measurement {
  const m = result.measurements.find((x) => x.server === server);
  if (!m) throw new Error(`no measurement on ${server}`);
  return m;
}

/**
 * Against the reference, which renders and so is the limit. A kept answer can outrun wrk itself: below CPU_BOUND of
 * its core Brisk's figure is a floor, a pass all the same, but a miss says nothing.
 */
function referenceTarget(figure: string, brisk: Measurement, ref: Measurement): Target {
  const ratio = ratioTarget(figure, brisk, ref, PAGE_RATIO);
  const shares = `Brisk's server ${pct(brisk.serverCpu)} of its core, the reference's ${pct(ref.serverCpu)}, wrk ${pct(brisk.wrkCpu)}`;
  const measurable = ref.serverCpu >= CPU_BOUND && (ratio.pass || brisk.serverCpu >= CPU_BOUND);
  return { ...ratio, measured: `${ratio.measured}; ${shares}`, pass: measurable ? ratio.pass : undefined };
}

function pageTargets(page: CachedPageResult): Target[] {
  const on = measurementOf(page, CACHED_ON);
  const lookups = Object.entries(page.lookups);
  const allHits =
    lookups.every(([, l]) => l.misses === 0 && l.staleHits === 0) &&
    Object.values(page.sample).every((seen) => seen.every((x) => x === "200 hit"));
  const figure = `cached page (\`${CACHED_PATH}\`, the items page kept in the render cache)`;
  return [
    referenceTarget(`${figure}, Sentry on`, on, measurementOf(page, CACHED_REFERENCE)),
    ceilingTarget(`${figure} against the static ceiling`, on, measurementOf(page, CACHED_CEILING)),
    {
      figure: `${CACHED_PATH}: wrk's answers were kept answers`,
      measured: lookups
        .map(([server, l]) => `${server}: ${int(l.hits)} hits, ${l.staleHits} stale, ${l.misses} misses`)
        .join("; "),
      target: "no miss under load, x-cache: hit on a sample",
      pass: allHits,
    },
    {
      figure: `${CACHED_PATH}: the kept answer is the whole page`,
      measured: `${int(page.bytes.brisk)} B vs the reference's ${int(page.bytes.reference)} B`,
      target: "same <main> as the reference",
      pass: page.sameMain,
    },
  ];
}

function shellTargets(shell: ShellPageResult): Target[] {
  const fromShell = Object.entries(shell.fromShell);
  return [
    boundRatioTarget(
      `partly prerendered page (\`${SHELL_PATH}\`: the table in a shell, one line resumed), Sentry on`,
      measurementOf(shell, CACHED_ON),
      measurementOf(shell, CACHED_REFERENCE),
      SHELL_RATIO,
    ),
    {
      figure: `${SHELL_PATH}: answered from the shell, the whole page`,
      measured: `${fromShell.map(([server, yes]) => `${server}: ${yes ? "shell" : "rendered whole"}`).join("; ")}; ${int(shell.bytes.brisk)} B vs the reference's ${int(shell.bytes.reference)} B`,
      target: "the shell, and its <main> with the hole in place the reference's",
      pass: fromShell.every(([, yes]) => yes) && shell.samePage,
    },
  ];
}

function replicaTarget(r: ReplicaInvalidation): Target {
  const seen = r.seenMs.length;
  const p99 = percentile(r.seenMs, 99);
  return {
    figure: `invalidation seen on the other replica (\`${REPLICA_PATH}\`, two servers on one PostgreSQL)`,
    measured: seen
      ? `p99 ${ms(p99)} (p50 ${ms(percentile(r.seenMs, 50))}, max ${ms(Math.max(...r.seenMs))}); ${seen} of ${r.writes} writes seen${r.stopped ? `; ${r.stopped}` : ""}`
      : `none of ${r.writes} writes seen: ${r.stopped ?? "?"}`,
    target: `p99 < ${SEEN_P99_MS} ms over 100 writes, every write seen`,
    pass: seen > 0 && r.unseen === 0 && r.writes >= 100 && p99 < SEEN_P99_MS,
  };
}

/** Flat once the cache is full: no reading in the scan's second half above the first half's highest by more than 5 %. */
function flatTarget(s: MemoryScan): Target {
  const half = Math.ceil(s.during.length / 2);
  const highest = (xs: readonly Memory[]) => Math.max(...xs.map((x) => x.rssMiB));
  const [first, second] = [highest(s.during.slice(0, half)), highest(s.during.slice(half))];
  return {
    figure: `RSS through the scan with a ${budgetOf(s.budget)} render cache`,
    measured: `highest ${mib(second)} in its second half, ${mib(first)} in its first`,
    target: "flat once full (≤ the first half's + 5 %)",
    pass: s.during.length > 1 && second <= first * 1.05,
  };
}

/** The peak RSS a budget costs beyond the same scan with the cache off, against what the budget promises. */
function rssTarget(s: MemoryScan, off: MemoryScan): Target {
  const extra = s.after.peakMiB - off.after.peakMiB;
  const budgetMiB = s.budget / 1_048_576;
  return {
    figure: `peak RSS with a ${budgetOf(s.budget)} render cache over the scan, against the cache off`,
    measured: `+${mib(extra)}, ${round(extra / budgetMiB, 1)} × the budget (${mib(s.after.peakMiB)} vs ${mib(off.after.peakMiB)})`,
    target: `≤ ${RSS_PER_BUDGET} × the budget (${mib(RSS_PER_BUDGET * budgetMiB)})`,
    pass: s.failed === 0 && off.failed === 0 && extra <= RSS_PER_BUDGET * budgetMiB,
  };
}

function memoryTargets(scans: readonly MemoryScan[]): Target[] {
  const off = scans.find((s) => s.budget === 0);
  return scans
    .filter((s) => s.budget > 0)
    .flatMap((s): Target[] => [
      {
        figure: `render cache at ${budgetOf(s.budget)} after ${int(s.urls)} distinct URLs`,
        measured: `${int(s.stats.bytes)} B in ${int(s.stats.entries)} entries, ${int(s.stats.evicted)} evicted, ${s.failed} failed`,
        target: "≤ its budget, full (evictions)",
        pass: s.failed === 0 && s.stats.bytes <= s.budget && s.stats.evicted > 0,
      },
      flatTarget(s),
      ...(off ? [rssTarget(s, off)] : []),
    ]);
}

export function renderCacheTargets(r: RenderCacheResults): Target[] {
  return [
    ...(r.page ? pageTargets(r.page) : []),
    ...(r.shell ? shellTargets(r.shell) : []),
    ...(r.replicas ? [replicaTarget(r.replicas)] : []),
    ...(r.memory ? memoryTargets(r.memory) : []),
  ];
}

const THROUGHPUT_HEADER = [
  "server",
  "req/s",
  "p50",
  "p99",
  "server CPU",
  "CPU/req",
  "wrk CPU",
  "others",
  "errors",
  "× reference",
];

function throughputRow(m: Measurement, ref: Measurement): string[] {
  return [
    m.server,
    int(m.rps),
    ms(m.p50Ms),
    ms(m.p99Ms),
    pct(m.serverCpu),
    cpuPerRequest(m),
    pct(m.wrkCpu),
    pct(m.foreignCpu),
    String(m.non2xx + m.socketErrors),
    round(m.rps / ref.rps, 2).toFixed(2),
  ];
}

function pageTable(page: CachedPageResult): Table {
  const ref = measurementOf(page, CACHED_REFERENCE);
  return {
    title: `Cached page \`${CACHED_PATH}\` (wrk -t1 -c50 in turns; the reference renders the page for every request)`,
    note:
      "The ceiling sends Brisk's kept answer as one fixed string. sample: the x-cache of 20 answers before the load; " +
      "hits, stale, misses: the cache's own counts (`/healthz`) over the warm-ups and the load.",
    header: [...THROUGHPUT_HEADER, "sample", "hits / stale / misses"],
    rows: page.measurements.map((m) => {
      const lookups = page.lookups[m.server];
      const sample = page.sample[m.server];
      return [
        ...throughputRow(m, ref),
        sample ? `${sample.filter((x) => x === "200 hit").length} of ${sample.length} hit` : "–",
        lookups ? `${int(lookups.hits)} / ${lookups.staleHits} / ${lookups.misses}` : "–",
      ];
    }),
  };
}

function shellTable(shell: ShellPageResult): Table {
  const ref = measurementOf(shell, CACHED_REFERENCE);
  return {
    title: `Partly prerendered page \`${SHELL_PATH}\` (wrk -t1 -c50 in turns; the reference renders the page whole for every request)`,
    note:
      "Brisk runs the route's loader, then sends the shell prerendered at start with this response's nonce and React's " +
      "resume of its one hole (a line with the request's time); the table is in the shell.",
    header: THROUGHPUT_HEADER,
    rows: shell.measurements.map((m) => throughputRow(m, ref)),
  };
}

function replicaTable(r: ReplicaInvalidation): Table {
  const row = (label: string, values: readonly number[]) => [
    label,
    ms(percentile(values, 50)),
    ms(percentile(values, 99)),
    ms(Math.max(...values)),
  ];
  return {
    title: `Invalidation across replicas (${r.writes} writes through A's \`POST /api/guestbook\`, B asked for \`${REPLICA_PATH}\`)`,
    note:
      "Two bench servers with one DATABASE_URL (PostgreSQL: LISTEN/NOTIFY and the poll) and one DATA_DIR (the guestbook's " +
      "SQLite file). Before each write B answers from its cache (x-cache: hit); the write inserts and calls " +
      "revalidateTag; B is then asked one request at a time until its answer shows the new entry. " +
      `Not seen: ${r.unseen}. B's answers asked meanwhile: ${int(r.polls)}. B's first changed answer, by x-cache: ` +
      `${
        Object.entries(r.changedBy)
          .map(([x, n]) => `${x} ${n}`)
          .join(", ") || "none"
      }. B's cache dropped ${r.invalidated} answers on invalidations.`,
    header: ["from sending the write", "p50", "p99", "max"],
    rows: [
      ...(r.seenMs.length ? [row("to B's answer showing it", r.seenMs)] : []),
      ...(r.writeMs.length ? [row("to A's answer (insert, revalidateTag, publish)", r.writeMs)] : []),
    ],
  };
}

function memoryTable(scans: readonly MemoryScan[]): Table {
  const memory = (x: Memory) => mib(x.rssMiB);
  return {
    title: `Render cache memory under a scan of distinct URLs (\`${CACHED_PATH}?q=<n>\`, a fresh server each, Sentry off)`,
    note:
      "RSS: VmRSS idle after the start, right after the scan and 2 s later; peak: VmHWM over the server's life. bytes: " +
      "the cache's own count (answers and a fixed cost per entry), which the budget bounds.",
    header: [
      "budget",
      "URLs",
      "URLs/s",
      "failed",
      "server CPU",
      "entries",
      "bytes",
      "stored",
      "evicted",
      "RSS idle",
      "RSS each tenth of the scan",
      "RSS after",
      "RSS 2 s later",
      "peak RSS",
    ],
    rows: scans.map((s) => [
      budgetOf(s.budget),
      int(s.urls),
      int(s.urls / s.seconds),
      String(s.failed),
      pct(s.serverCpu),
      int(s.stats.entries),
      int(s.stats.bytes),
      int(s.stats.stored),
      int(s.stats.evicted),
      memory(s.idle),
      s.during.map((x) => Math.round(x.rssMiB)).join(" · "),
      memory(s.after),
      memory(s.settled),
      mib(s.after.peakMiB),
    ]),
  };
}

/** The targets, then the tables of what was measured: Markdown for the terminal and RESULTS.md alike. */
export function renderCacheReport(r: RenderCacheResults): string {
  const targets: Table = {
    title: "Render cache and partial prerendering targets (issue 39)",
    note: "Sentry on unless noted. bench/README.md (Render cache and partial prerendering) describes each measurement.",
    header: ["figure", "measured", "target", "result"],
    rows: renderCacheTargets(r).map((t) => [t.figure, t.measured, t.target, verdict(t.pass)]),
  };
  const tables = [
    ...(r.page ? [pageTable(r.page)] : []),
    ...(r.shell ? [shellTable(r.shell)] : []),
    ...(r.replicas ? [replicaTable(r.replicas)] : []),
    ...(r.memory ? [memoryTable(r.memory)] : []),
  ];
  return [targets, ...tables].map(markdown).join("\n");
}
