// paint-trace.ts: `bun bench/paint-trace.ts`: where a page's time between its document's first byte and its first
// contentful paint goes, from Chromium's own trace (CDP `Tracing`, every process), Brisk against the reference:
// cold loads as the visitor bench makes them (from another site, a quiet browser first, cache off), servers in turns.
// Per server and condition, medians over the loads: the CPU each of Chromium's threads used in that window (the bench
// gives Chromium one core, so any of it holds the paint back), and the renderer main thread's time by task.
//
// TRACE_RUNS: loads per server and condition (6). TRACE_PATH: the page (/items). TRACE_THROTTLED=1: issue 22's
// 4× CPU, 150 ms, 1.6 Mbit/s profile only. TRACE_BASELINE=<checkout>: a third server, as the visitor bench's.
// TRACE_DUMP=<folder>: each load's trace there, to open in DevTools.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { benchServers } from "./lib/bench-servers.ts";
import { LOAD_CORE, pinSelf } from "./lib/proc.ts";
import { PATHS } from "./lib/results.ts";
import { median } from "./lib/stats.ts";
import { tracedLoad, type PaintTrace } from "./lib/paint-trace.ts";
import { SLOW_4G, type VisitorTarget } from "./lib/visitor.ts";
import { launchBrowser } from "brisk/test";

const RUNS = Number(Bun.env.TRACE_RUNS ?? 6);
const PATH = Bun.env.TRACE_PATH ?? PATHS.items;
const BASELINE = Bun.env.TRACE_BASELINE;
const DUMP = Bun.env.TRACE_DUMP;
const THROTTLE = Bun.env.TRACE_THROTTLED === "1" ? SLOW_4G : undefined;
const say = (message: string) => console.error(`paint-trace: ${message}`);

pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-paint-trace-"));
const clientDir = join(work, "client");
const fleet = benchServers(work, clientDir);
const browser = await launchBrowser();
const elsewhere = Bun.serve({
  hostname: "127.0.0.2",
  port: 0,
  fetch: () =>
    new Response('<!doctype html><title>Elsewhere</title><a href="#">a link</a>', {
      headers: { "content-type": "text/html" },
    }),
});
try {
  const sentry = { SENTRY_DSN: "http://publickey@127.0.0.1:9/42" };
  say("building the client");
  await buildClient({ outdir: clientDir, appModule: BENCH_APP });
  const targets: VisitorTarget[] = [
    { ...(await fleet.start("brisk, Sentry on", "brisk-server.ts", sentry)), hydrates: true },
    { ...(await fleet.start("reference", "reference-server.tsx")), hydrates: false },
  ];
  if (BASELINE)
    targets.push({ ...(await fleet.startBaseline("baseline brisk, Sentry on", BASELINE, sentry)), hydrates: true });
  if (DUMP) await mkdir(DUMP, { recursive: true });
  const traces = new Map<string, PaintTrace[]>(targets.map((t) => [t.name, []]));
  // A first load each, not kept: the servers' and the browser's first of anything.
  for (let i = -1; i < RUNS; i++) {
    for (const target of targets) {
      const dump =
        DUMP && i >= 0
          ? join(DUMP, `${target.name.replace(/\W+/g, "-")}-${THROTTLE ? "throttled" : "unthrottled"}-${i}.json`)
          : undefined;
      const trace = await tracedLoad(browser, elsewhere.url.href, target.origin + PATH, THROTTLE, dump);
      if (i >= 0) traces.get(target.name)!.push(trace);
    }
  }
  console.log(`\n## ${PATH}, ${THROTTLE ? THROTTLE.name : "unthrottled"}: medians of ${RUNS} traced loads (ms)\n`);
  report(traces);
} finally {
  await browser.close();
  await elsewhere.stop(true);
  await fleet.stopAll();
  await rm(work, { recursive: true, force: true });
}

function report(traces: Map<string, PaintTrace[]>) {
  const names = [...traces.keys()];
  const med = (pick: (t: PaintTrace) => number) => (name: string) => {
    const values = traces.get(name)!.map(pick);
    return values.length ? median(values).toFixed(1) : "–";
  };
  const rows: Array<[string, (name: string) => string]> = [
    ["document's headers", med((t) => t.headersMs)],
    ["document's last byte", med((t) => t.documentEndMs)],
    ["FCP", med((t) => t.fcpMs)],
    ["first byte → FCP", med((t) => t.fcpMs - t.headersMs)],
    ["CPU, all of Chromium, navigation → FCP", med((t) => t.cpuFromStartMs)],
    ["CPU, all of Chromium, first byte → FCP", med((t) => sum(Object.values(t.cpuByThread)))],
  ];
  const threads = new Set<string>();
  const tasks = new Set<string>();
  for (const list of traces.values())
    for (const t of list) {
      for (const k of Object.keys(t.cpuByThread)) threads.add(k);
      for (const k of Object.keys(t.mainByTask)) tasks.add(k);
    }
  for (const thread of [...threads].sort()) rows.push([`CPU ${thread}`, med((t) => t.cpuByThread[thread] ?? 0)]);
  for (const task of [...tasks].sort()) rows.push([`main: ${task}`, med((t) => t.mainByTask[task] ?? 0)]);
  console.log(`| figure | ${names.join(" | ")} |`);
  console.log(`| --- |${names.map(() => " ---: |").join("")}`);
  for (const [label, of] of rows) console.log(`| ${label} | ${names.map(of).join(" | ")} |`);
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
