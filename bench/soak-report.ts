// soak-report.ts: turns the soak's counts into the route table, a line per attack and the pass/fail figures.
import { int, median, round } from "./lib/stats.ts";
import type { AttackResult } from "./soak-attacks.ts";
import type { LoadCounts, Target } from "./soak-load.ts";
import type { LogTally } from "./soak-logs.ts";

export interface RssSample {
  /** Seconds since the load started. */
  at: number;
  rssMiB: number;
  peakMiB: number;
}

export interface SoakResult {
  seconds: number;
  warmupSeconds: number;
  concurrency: number;
  targets: Target[];
  counts: LoadCounts;
  logs: LogTally;
  rss: RssSample[];
  /** event_ids that reached the fake ingest. */
  arrived: Set<string>;
  /** Seconds the fake upstream spent in each mode. */
  upstreamSeconds: Record<string, number>;
  /** The attacks after the mixed load, in the order they ran. */
  attacks: AttackResult[];
  /** How the server process ended after SIGTERM. */
  exit: string;
}

export interface Figure {
  name: string;
  value: string;
  pass: boolean;
}

/** RSS limit: growth from just after warm-up to the end of the load. */
export const RSS_GROWTH_LIMIT = 0.1;
/** The server's peak resident memory over the whole run, attacks included. */
export const PEAK_RSS_LIMIT_MIB = 256;
/**
 * Each side of the figure is the median over this many seconds: under load the heap swings ±10%
 * between collections, so a single sample would measure where the GC happened to be.
 */
const RSS_WINDOW_SECONDS = 10;

function statusCell(byStatus: Map<string, number> | undefined): string {
  if (!byStatus) return "none";
  return [...byStatus]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s} ×${int(n)}`)
    .join(", ");
}

export function routeTable(r: SoakResult): string[] {
  const rows = r.targets.map((t) => {
    const streamed = r.counts.streamed.get(t.name);
    const note = streamed
      ? `   (streamed ${int(streamed)}, aborted mid-stream ${int(r.counts.aborted.get(t.name) ?? 0)})`
      : "";
    return [t.name, t.expected.join("/"), statusCell(r.counts.statuses.get(t.name)) + note];
  });
  const header = ["target", "expected", "answers"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]!) : c)).join("  ");
  return [line(header), ...rows.map(line)];
}

/** Answers outside each target's expected set, and targets never asked for. */
function statusProblems(targets: Target[], counts: LoadCounts): string[] {
  const bad: string[] = [];
  for (const t of targets) {
    for (const [status, n] of counts.statuses.get(t.name) ?? []) {
      if (!t.expected.includes(Number(status))) bad.push(`${t.name} ${status} ×${n}`);
    }
  }
  const missing = targets.filter((t) => !counts.statuses.has(t.name)).map((t) => `${t.name} never requested`);
  return [...bad, ...missing];
}

function unexpectedStatuses(r: SoakResult): Figure {
  const problems = statusProblems(r.targets, r.counts);
  return {
    name: "unexpected statuses",
    value: problems.length ? problems.join("; ") : "0",
    pass: problems.length === 0,
  };
}

/** Median RSS per RSS_WINDOW_SECONDS of the run, for the eye: a leak climbs, a healthy heap plateaus. */
export function rssTrajectory(r: SoakResult): string {
  const buckets: number[][] = [];
  for (const s of r.rss) (buckets[Math.floor(s.at / RSS_WINDOW_SECONDS)] ??= []).push(s.rssMiB);
  return buckets.map((b) => round(median(b), 0)).join(" → ");
}

function rssGrowth(r: SoakResult): Figure {
  // Short runs get shorter windows, so the two never overlap.
  const window = Math.min(RSS_WINDOW_SECONDS, (r.seconds - r.warmupSeconds) / 2);
  const after = r.rss.filter((s) => s.at >= r.warmupSeconds && s.at < r.warmupSeconds + window);
  const last = r.rss.filter((s) => s.at >= r.seconds - window && s.at <= r.seconds);
  if (!after.length || !last.length)
    return { name: "RSS growth after warm-up", value: "not enough samples", pass: false };
  const start = median(after.map((s) => s.rssMiB));
  const end = median(last.map((s) => s.rssMiB));
  const growth = (end - start) / start;
  const peak = Math.max(...r.rss.map((s) => s.peakMiB));
  const value = `${round(start)} → ${round(end)} MiB (${growth >= 0 ? "+" : ""}${round(growth * 100)}%, limit +${RSS_GROWTH_LIMIT * 100}%; peak ${round(peak)} MiB)`;
  return { name: "RSS growth after warm-up", value, pass: growth < RSS_GROWTH_LIMIT };
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

function peakRss(r: SoakResult): Figure {
  const peak = Math.max(...r.rss.map((s) => s.peakMiB));
  const value = `${round(peak)} MiB (limit ${PEAK_RSS_LIMIT_MIB} MiB)`;
  return { name: "peak RSS", value, pass: peak < PEAK_RSS_LIMIT_MIB };
}

function logLines(r: SoakResult): Figure {
  const { logs } = r;
  const value =
    `${int(logs.unexpected)} unexpected (expected: ${int(logs.intended)} error lines from the pages that fail on purpose, ` +
    `${int(sum(logs.upstreamFailures.values()))} tunnel 502/504 and ${logs.sentryUnreachable} "sentry unreachable" warnings while the upstream failed, ${logs.torn} torn and ` +
    `${logs.dropped.stderr} stderr lines from the log shipper's restart)`;
  const samples = logs.samples.map((s) => `\n      ${s}`).join("");
  return { name: "unhandled rejections, stderr, error logs", value: value + samples, pass: logs.unexpected === 0 };
}

function envelopesArrived(r: SoakResult): Figure {
  const accepted = r.counts.accepted;
  let arrived = 0;
  for (const id of accepted) if (r.arrived.has(id)) arrived++;
  const value = `${int(arrived)} of ${int(accepted.size)} arrived`;
  // None accepted means the upstream was never reachable: the figure would prove nothing.
  return { name: "tunnel 2xx envelopes at the ingest", value, pass: accepted.size > 0 && arrived === accepted.size };
}

function attackLine(r: SoakResult, a: AttackResult): string {
  const byStatus = new Map<string, number>();
  for (const statuses of a.counts.statuses.values())
    for (const [status, n] of statuses) byStatus.set(status, (byStatus.get(status) ?? 0) + n);
  const answers = statusCell(byStatus);
  const rss = Math.max(...r.rss.filter((s) => s.at >= a.from && s.at <= a.to).map((s) => s.rssMiB));
  const errors = r.logs.errors.get(a.name) ?? 0;
  const upstream = r.logs.upstreamFailures.get(a.name);
  const extra = [a.note, upstream ? `${upstream} tunnel 502/504 from the upstream` : undefined]
    .filter(Boolean)
    .join("; ");
  return `attack: ${a.name}: ${int(a.counts.requests)} requests (${answers}); peak RSS ${round(rss)} MiB; ${errors} error lines${extra ? `; ${extra}` : ""}`;
}

function attacksHeld(r: SoakResult): Figure {
  const problems = r.attacks.flatMap((a) => {
    const errors = r.logs.errors.get(a.name) ?? 0;
    const own = (a.problems ?? []).map((p) => `${a.name}: ${p}`);
    return [
      ...statusProblems(a.targets, a.counts).map((p) => `${a.name}: ${p}`),
      ...(errors ? [`${a.name}: ${errors} error lines`] : []),
      ...own,
    ];
  });
  const { dropped } = r.logs;
  // The shipper's death must have cost lines, and the server must have said how many once it was back.
  if (!dropped.reports) problems.push("no count of dropped log lines after the log shipper came back");
  const value = problems.length
    ? problems.join("; ")
    : `0 error lines; ${int(dropped.lines)} log lines dropped while the shipper was dead, counted by the server`;
  return { name: "attacks", value, pass: problems.length === 0 };
}

export function figures(r: SoakResult): Figure[] {
  return [unexpectedStatuses(r), rssGrowth(r), peakRss(r), logLines(r), attacksHeld(r), envelopesArrived(r)];
}

export function report(r: SoakResult): { text: string; pass: boolean } {
  const all = figures(r);
  const streamed = [...r.counts.streamed.values()].reduce((a, b) => a + b, 0);
  const aborted = [...r.counts.aborted.values()].reduce((a, b) => a + b, 0);
  const upstream = Object.entries(r.upstreamSeconds)
    .map(([mode, s]) => `${mode} ${round(s)} s`)
    .join(", ");
  const pass = all.every((f) => f.pass);
  const text = [
    "",
    `soak: ${r.seconds} s at concurrency ${r.concurrency} (warm-up ${r.warmupSeconds} s), ${int(r.counts.requests)} requests (${int(r.counts.requests / r.seconds)}/s)`,
    `      ${int(aborted)} of ${int(streamed)} streamed requests aborted mid-stream (${round((aborted / Math.max(1, streamed)) * 100)}%); upstream ${upstream}`,
    `      server RSS, median per ${RSS_WINDOW_SECONDS} s: ${rssTrajectory(r)} MiB`,
    `      server after SIGTERM: ${r.exit}`,
    "",
    ...routeTable(r),
    "",
    ...r.attacks.map((a) => attackLine(r, a)),
    "",
    ...all.map((f) => `${f.pass ? "PASS" : "FAIL"}  ${f.name}: ${f.value}`),
    "",
    `soak: ${pass ? "PASS" : "FAIL"}`,
  ].join("\n");
  return { text, pass };
}
