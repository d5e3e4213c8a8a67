// visitor-report.ts: the visitor measure's tables and targets, for RESULTS.md and for `bun bench/visitor.ts`.
import type { Table, Target } from "./report.ts";
import { int, round } from "./stats.ts";
import { FAST_3G, SLOW_4G, medians, type VisitorResult } from "./visitor.ts";

const ms = (value: number) => `${round(value, 1)} ms`;
const opt = (x: number | undefined, f: (x: number) => string) => (x === undefined ? "–" : f(x));

const NOTES: Record<string, string> = {
  "from another site":
    "the load starts on a page of another site (127.0.0.2), as a visitor's does; the targets use these rows",
  "from a fresh tab":
    "from the blank document of a new tab, where Chromium can keep the tab's first process, except for a document with Cross-Origin-Opener-Policy (Brisk's), which needs a new one",
};

/** One table per page: every condition and server measured on it. */
export function visitorTable(results: readonly VisitorResult[], path: string, about: string): Table {
  const rows = results.filter((v) => v.path === path);
  return {
    title: `What the visitor waits for: cold loads of ${path} in headless Chromium (median of ${rows[0]?.loads.length ?? 0} per row)`,
    note:
      `${about} Each load in a fresh context with the cache off; servers take turns. ` +
      `Throttled: the CPU slowdown and the network set through the DevTools protocol; Fast 3G is DevTools' preset (${FAST_3G.network.latency} ms, ${int(FAST_3G.network.downloadThroughput)} B/s down), ` +
      `${SLOW_4G.name} is issue 22's profile (${int(SLOW_4G.network.downloadThroughput)} B/s down). ` +
      "First and last byte: the document's headers and its last byte as DevTools saw them arrive (after the emulated latency, which Navigation Timing leaves out), from the navigation's start; entry: the last byte of the page's first script. " +
      "hydrated: React's root effect ran (the reference does not run Brisk's boot, so it never hydrates). Bytes: on the wire, headers included. " +
      "TBT: total blocking time as Lighthouse defines it (each long task's part after FCP beyond 50 ms), up to the end of the load, hydration and a quiet 0.3 s (1 s throttled) after it. " +
      [...new Set(rows.map((v) => v.arrival))].map((a) => `${a}: ${NOTES[a]}.`).join(" "),
    header: [
      "condition",
      "server",
      "first byte",
      "last byte",
      "entry",
      "FCP",
      "LCP",
      "DOMContentLoaded",
      "hydrated",
      "document bytes",
      "all bytes",
      "long tasks",
      "long task time",
      "TBT",
    ],
    rows: rows.map((v) => {
      const m = medians(v);
      return [
        `${v.throttle?.name ?? "unthrottled"}, ${v.arrival}`,
        v.server,
        opt(m.responseStartMs, ms),
        opt(m.responseEndMs, ms),
        opt(m.entryEndMs, ms),
        opt(m.fcpMs, ms),
        opt(m.lcpMs, ms),
        opt(m.dclMs, ms),
        opt(m.hydratedMs, ms),
        opt(m.documentBytes, int),
        opt(m.bytes, int),
        opt(m.longTasks, String),
        opt(m.longTaskMs, ms),
        opt(m.tbtMs, ms),
      ];
    }),
  };
}

/** The medians of one server's loads of `path` from another site, throttled or not. */
function visitorOf(results: readonly VisitorResult[], server: string, path: string, throttled: boolean) {
  const found = results.find(
    (v) => v.server === server && v.path === path && v.arrival === "from another site" && !!v.throttle === throttled,
  );
  if (!found) throw new Error(`no visitor measurement of ${path} on ${server}`);
  return medians(found);
}

type Figure = "fcpMs" | "lcpMs" | "tbtMs";

/** Brisk's median of a figure against the reference's, at most `max` times it. */
export function visitorRatio(
  results: readonly VisitorResult[],
  servers: { brisk: string; reference: string },
  path: string,
  throttled: boolean,
  figure: Figure,
  label: string,
  max: number,
): Target {
  const brisk = visitorOf(results, servers.brisk, path, throttled)[figure];
  const ref = visitorOf(results, servers.reference, path, throttled)[figure];
  const known = brisk !== undefined && ref !== undefined;
  return {
    figure: label,
    // A reference with no blocking time at all has no ratio: then only none passes.
    measured: !known ? "–" : `${ref > 0 ? `${round(brisk / ref, 2).toFixed(2)} ×` : "–"} (${ms(brisk)} vs ${ms(ref)})`,
    target: `≤ ${max.toFixed(2)} × reference`,
    pass: known ? brisk <= ref * max : undefined,
  };
}

/** Issue 22's targets for a page rendered per request. */
export function perRequestVisitorTargets(
  results: readonly VisitorResult[],
  servers: { brisk: string; reference: string },
  path: string,
): Target[] {
  const of = (throttled: boolean, figure: Figure, label: string, max: number) =>
    visitorRatio(results, servers, path, throttled, figure, `\`${path}\` (rendered per request) ${label}`, max);
  return [
    of(false, "fcpMs", "unthrottled FCP", 1.1),
    of(true, "fcpMs", `FCP, ${SLOW_4G.name}`, 1),
    of(true, "tbtMs", `total blocking time, ${SLOW_4G.name}`, 1.2),
  ];
}
