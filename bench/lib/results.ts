// results.ts: turns one run's measurements into the targets table, the detail tables and RESULTS.md.
import type { Binary } from "./binary.ts";
import type { ClientWeight, Weight } from "./client-weight.ts";
import { GUESTBOOK_PATH, rowsMismatch, type WriteMeasurement } from "./guestbook.ts";
import type { Machine } from "./machine.ts";
import { markdown, targetsTable, type Table, type Target } from "./report.ts";
import { int, median, round } from "./stats.ts";
import type { Timing } from "./stream-timing.ts";
import { JIT_QUIET, MAX_WARMUP_SECONDS, type Measurement } from "./throughput.ts";
import type { VisitorResult } from "./visitor.ts";
import { perRequestVisitorTargets, visitorRatio, visitorTable } from "./visitor-report.ts";

/**
 * The bench app's pages (bench/app): the prerendered home, the 10 KB items page rendered for every request, the
 * not-found page and the streamed page. The reference renders each for every request.
 */
export const PATHS = {
  home: "/",
  items: "/items",
  session: "/session/items",
  nested: "/section/items",
  notFound: "/no/such/page",
  stream: "/stream",
} as const;

/** A page rendered for every request on both sides, and its targets (× the reference's req/s). */
export interface PerRequestPage {
  path: string;
  figure: string;
  /** Sentry on (errors only), and Sentry off when set. */
  on: number;
  off?: number;
  /** The reference's path it is held against, when not its own (a nested page against the single-level one). */
  referencePath?: string;
  /** Needs a signed-in visitor: wrk sends the bench's session cookie (lib/session.ts). */
  session?: boolean;
}

/**
 * The pages rendered for every request, each measured on Sentry off, on, and tracing at 0.1 and 1.0. A page joins
 * with its route in bench/app/routes.ts and an entry here; the reference renders it too, or `referencePath` names
 * the page of the reference it is held against.
 */
export const PER_REQUEST: readonly PerRequestPage[] = [
  { path: PATHS.items, figure: "10 KB items page", on: 0.85, off: 0.9 },
  { path: PATHS.session, figure: "the same behind a signed-cookie loader", on: 0.8, session: true },
  {
    path: PATHS.nested,
    figure: "the same two levels down (a layout with its loader)",
    on: 0.8,
    referencePath: PATHS.items,
  },
];

/** The reference's page a path is held against: its own, or the one PER_REQUEST names. */
export function referencePathOf(path: string): string {
  return PER_REQUEST.find((p) => p.path === path)?.referencePath ?? path;
}

export interface Results {
  machine: Machine;
  pinning: boolean;
  seconds: number;
  /** The least warm-up per server and path (each goes on until its compiler has gone quiet). */
  warmupSeconds: number;
  /** briskSent: the bytes of Brisk's body asked for with `Accept-Encoding: br, gzip`, in briskCoding. */
  htmlBytes: Record<
    string,
    {
      brisk: number;
      briskSent: number;
      briskCoding: string;
      reference: number;
      status: [number, number];
      sameMain: boolean;
    }
  >;
  throughput: Measurement[];
  streaming: { brisk: Timing[]; reference: Timing[]; foreignCpu: number };
  /**
   * Cold Chromium loads of / (Brisk, the reference and the static ceiling, unthrottled and 4× CPU + Fast 3G) and of
   * the items page rendered per request (Brisk and the reference, unthrottled and on issue 22's throttled profile).
   */
  visitors: VisitorResult[];
  tunnel: Array<Measurement & { arrived: number }>;
  /** POST /guestbook: each server's answers and the rows its table gained. */
  writes: { measurements: WriteMeasurement[]; formBytes: number; connections: number; slices: number };
  envelopeBytes: number;
  weight: ClientWeight;
  binary: Binary & {
    coldStartsMs: number[];
    coldStartCpuMs: number[];
    load: { idleMiB: number; peakMiB: number; sampledMiB: number; measurement: Measurement };
  };
  /** VmHWM of Brisk with Sentry on (errors only) right after the per-request pages' load. */
  perRequestPeakMiB: number;
  wallSeconds: number;
  /** Cores other processes used on average over the whole run. */
  foreignCpu: number;
}

const REF = "reference";
const OFF = "brisk, Sentry off";
const CEILING = "static ceiling";
const ON = "brisk, Sentry on";
/**
 * Brisk's page handler alone on raw Bun.serve (bench/ablation-server.ts): the pages without the request pipeline,
 * Elysia or Sentry.
 */
export const HANDLER = "page handler on Bun.serve";
export const TRACED_ALL = "brisk, tracing 1.0";
export const TRACED_TENTH = "brisk, tracing 0.1";
const kB = (bytes: number) => `${round(bytes / 1000, 1)} kB`;
const ms = (value: number) => `${round(value, 2)} ms`;
const mib = (value: number) => `${round(value, 1)} MiB`;
const pct = (share: number) => `${Math.round(share * 100)} %`;

function find(list: Measurement[], server: string, path: string): Measurement {
  const m = list.find((x) => x.server === server && x.path === path);
  if (!m) throw new Error(`no measurement of ${path} on ${server}`);
  return m;
}

export function ratioTarget(figure: string, brisk: Measurement, ref: Measurement, min: number): Target {
  const ratio = brisk.rps / ref.rps;
  return {
    figure,
    measured: `${ratio.toFixed(2)} × (${int(brisk.rps)} vs ${int(ref.rps)} req/s)`,
    target: `≥ ${min.toFixed(2)} × ${ref.server}`,
    pass: ratio >= min,
  };
}

/**
 * A ratio of two servers that must both have been the limit: one that got under CPU_BOUND of its core was held
 * back by other processes on the machine (or by wrk), and its req/s says nothing of Brisk.
 */
export function boundRatioTarget(figure: string, brisk: Measurement, ref: Measurement, min: number): Target {
  const ratio = ratioTarget(figure, brisk, ref, min);
  const idle = [brisk, ref].filter((m) => m.serverCpu < CPU_BOUND);
  if (!idle.length) return ratio;
  return {
    ...ratio,
    measured: `${ratio.measured}; ${idle.map((m) => `${m.server} ${pct(m.serverCpu)} of its core`).join(", ")}: not CPU-bound`,
    pass: undefined,
  };
}

/** Below this share of its core the ceiling's server was not the limit, and a ratio against it says nothing. */
export const CPU_BOUND = 0.9;

/** A ratio against the static ceiling, with proof that the ceiling ran CPU-bound (its server's share, wrk's, the bench's). */
export function ceilingTarget(figure: string, brisk: Measurement, ceiling: Measurement): Target {
  const ratio = ratioTarget(figure, brisk, ceiling, 0.5);
  const shares = `ceiling's server ${pct(ceiling.serverCpu)} of its core, wrk ${pct(ceiling.wrkCpu)}, bench ${pct(ceiling.benchCpu)}`;
  const bound = ceiling.serverCpu >= CPU_BOUND;
  return {
    ...ratio,
    measured: `${ratio.measured}; ${shares}${bound ? "" : ": not CPU-bound"}`,
    pass: bound ? ratio.pass : undefined,
  };
}

function warmupOf({ warmup }: Measurement): string {
  return `${warmup.seconds} s${warmup.settled ? "" : " unsettled"}, JIT ${round(warmup.jitCpuSeconds, 1)} s`;
}

export function cpuPerRequest(m: Measurement): string {
  return `${Math.round((m.serverCpu * m.seconds * 1e6) / m.requests)} µs`;
}

/** Answers the route is not supposed to give: wrk counts only non-2xx/3xx, so a 404 path inverts it. */
function unexpected(m: Measurement): number {
  return (m.path === PATHS.notFound ? m.requests - m.non2xx : m.non2xx) + m.socketErrors;
}

/**
 * What tracing costs on the pages rendered for every request: every request traced, and one in ten, beside the
 * same server with tracing off. Prerendered answers run outside Sentry's request scope, so `/` would show no cost.
 */
function tracingTable(r: Results): Table {
  const rows = PER_REQUEST.flatMap(({ path }) => {
    const on = r.throughput.find((m) => m.path === path && m.server === ON);
    return [ON, TRACED_ALL, TRACED_TENTH].flatMap((server) => {
      const m = r.throughput.find((x) => x.path === path && x.server === server);
      if (!m || !on) return [];
      return [
        [
          path,
          server === ON ? "off (Sentry on)" : server.replace("brisk, tracing ", ""),
          int(m.rps),
          round(m.rps / on.rps, 2).toFixed(2),
          cpuPerRequest(m),
          `${Math.round(extraCpu(m, on) * 100)} %`,
        ],
      ];
    });
  });
  return {
    title: "Tracing on the pages rendered per request (SENTRY_TRACES_SAMPLE_RATE; from the throughput runs above)",
    note: "CPU/req moves least with other load; the extra is against the same server with tracing off.",
    header: ["path", "sample rate", "req/s", "× tracing off", "CPU/req", "extra CPU/req"],
    rows,
  };
}

/** CPU per request of `m` over that of `base`, less one. */
function extraCpu(m: Measurement, base: Measurement): number {
  return m.serverCpu / m.rps / (base.serverCpu / base.rps) - 1;
}

function throughputTable(r: Results): Table {
  const rows = r.throughput.map((m) => {
    const ref = find(r.throughput, REF, m.path);
    return [
      m.path,
      m.server === REF && referencePathOf(m.path) !== m.path ? `${REF} (${referencePathOf(m.path)})` : m.server,
      int(m.rps),
      ms(m.p50Ms),
      ms(m.p99Ms),
      pct(m.serverCpu),
      cpuPerRequest(m),
      pct(m.jitCpu),
      warmupOf(m),
      pct(m.wrkCpu),
      pct(m.foreignCpu),
      String(unexpected(m)),
      m.server === REF ? "1.00" : round(m.rps / ref.rps, 2).toFixed(2),
    ];
  });
  return {
    title: `Throughput (wrk -t1 -c50; per server ${r.seconds} s in turns of ${Math.max(1, Math.round(r.seconds / 5))} s, after a warm-up each)`,
    note:
      "server CPU: the share of its one pinned core the server used; near 100 % means the server, not wrk, was the limit. " +
      "CPU/req: server CPU time per response, the figure least moved by other load. " +
      "JIT: the share of a core the server's compiler threads used during the measured turns (part of server CPU). " +
      `warm-up: load before the measured turns, at least ${r.warmupSeconds} s and then until the compiler used under ${pct(JIT_QUIET)} of the server's CPU over a second ` +
      `("unsettled" when it had not after ${MAX_WARMUP_SECONDS} s), with the compiler's CPU seconds meanwhile. ` +
      "wrk CPU: the share of its own core wrk used (the bench process beside it stays idle during a load). " +
      "others: CPU that processes outside this bench used meanwhile (100 % = one core); taking turns spreads it over both sides. " +
      "p50/p99 pool the turns. errors: wrong statuses plus socket errors.",
    header: [
      "path",
      "server",
      "req/s",
      "p50",
      "p99",
      "server CPU",
      "CPU/req",
      "JIT",
      "warm-up",
      "wrk CPU",
      "others",
      "errors",
      "× reference",
    ],
    rows,
  };
}

function streamingTable(r: Results): Table {
  const row = (name: string, t: Timing[]) => {
    const ttfb = t.map((x) => x.ttfbMs);
    return [
      name,
      ms(median(ttfb)),
      `${round(Math.min(...ttfb), 2)}–${round(Math.max(...ttfb), 2)} ms`,
      ms(median(t.map((x) => x.totalMs))),
      int(median(t.map((x) => x.firstChunkBytes))),
      [...new Set(t.map((x) => x.status))].join(","),
    ];
  };
  return {
    title: `Streaming ${PATHS.stream} (raw socket, one request at a time, median of ${r.streaming.brisk.length})`,
    note: `TTFB: connect to the first response byte. Total: to the server closing the socket after the streamed section (the loader waits 300 ms). Other processes used ${pct(r.streaming.foreignCpu)} of a core meanwhile.`,
    header: ["server", "TTFB median", "TTFB range", "total median", "first chunk bytes", "status"],
    rows: [row(ON, r.streaming.brisk), row(REF, r.streaming.reference)],
  };
}

function tunnelTable(r: Results): Table {
  return {
    title: `Tunnel POST /monitoring (${int(r.envelopeBytes)} B browser envelope, fake ingest)`,
    note: "2xx: what wrk counted; arrived: identical envelopes the ingest received in the same window. Brisk runs with every monitoring rule on (allowlist, limits, timeout, in-flight cap).",
    header: [
      "server",
      "req/s",
      "p50",
      "p99",
      "server CPU",
      "others",
      "2xx",
      "arrived at ingest",
      "lost",
      "× reference",
    ],
    rows: r.tunnel.map((m) => {
      const ok = m.requests - m.non2xx;
      const ref = r.tunnel.find((x) => x.server === REF)!;
      return [
        m.server === REF ? "reference (naive fetch forward)" : m.server,
        int(m.rps),
        ms(m.p50Ms),
        ms(m.p99Ms),
        pct(m.serverCpu),
        pct(m.foreignCpu),
        int(ok),
        int(m.arrived),
        int(Math.max(0, ok - m.arrived)),
        round(m.rps / ref.rps, 2).toFixed(2),
      ];
    }),
  };
}

function writesTable(r: Results): Table {
  const { measurements, formBytes, connections, slices } = r.writes;
  const ref = find(measurements, REF, GUESTBOOK_PATH);
  return {
    title: `Writes POST ${GUESTBOOK_PATH} (${int(formBytes)} B urlencoded form, SQLite in WAL mode, each server its own empty DATA_DIR)`,
    note:
      "Every request is a valid entry sent with `Origin` naming the server, as a browser sends it. " +
      "answered: responses below 400, which wrk cannot tell apart (one post to each server was checked first: 303 to the guestbook, one row). " +
      `rows: what the server's table gained over its measured slices, counted in the file; each answer needs its row, and up to ${connections} per slice may be rows whose answer wrk stopped waiting for. ` +
      "The reference parses the body with `request.formData()`, validates with the app's own validateEntry and inserts with the app's store, then answers 303: no cross-site check, body limit, request id or log line.",
    header: [
      "server",
      "req/s",
      "p50",
      "p99",
      "server CPU",
      "CPU/req",
      "others",
      "answered",
      "rows",
      "rows/s",
      "rows match",
      "errors",
      "× reference",
    ],
    rows: measurements.map((m) => [
      m.server === REF ? "reference (Bun.serve, same insert)" : m.server,
      int(m.rps),
      ms(m.p50Ms),
      ms(m.p99Ms),
      pct(m.serverCpu),
      cpuPerRequest(m),
      pct(m.foreignCpu),
      int(m.requests - m.non2xx),
      int(m.rows),
      int(m.rows / m.seconds),
      rowsMismatch(m, connections, slices) ? "NO" : "yes",
      String(m.non2xx + m.socketErrors),
      round(m.rps / ref.rps, 2).toFixed(2),
    ]),
  };
}

function weightTable(w: ClientWeight): Table {
  const row = (name: string, x: Weight | undefined) =>
    x
      ? [name, String(x.files.length), kB(x.raw), kB(x.gzip), kB(x.brotli), x.files.join(" ")]
      : [name, "0", "–", "–", "–", "–"];
  return {
    title: "Client JavaScript for / (kB = 1,000 bytes; gzip -9 and brotli 11, per file)",
    note: `Critical path: module scripts and modulepreloads in the HTML and their static imports. After hydration: ${w.afterFrom}${w.sentryCounted ? "" : " (no Sentry code among them)"}.`,
    header: ["set", "files", "raw", "gzip -9", "brotli", "files"],
    rows: [
      row("critical path (before hydration)", w.critical),
      row("after hydration (navigation, Sentry)", w.after),
      row("total with Sentry", w.total),
      row("tracing bundle, only with SENTRY_TRACES_SAMPLE_RATE", w.tracing),
    ],
  };
}

function binaryTable(r: Results): Table {
  const b = r.binary;
  const cs = b.coldStartsMs;
  return {
    title: "Binary",
    note: `${b.origin}. Started with SENTRY_DSN set (the fake ingest), pinned to the server core, from a temporary folder with nothing else in it: its first, unrecorded start writes ./data there (the store and a cookie secret), which the measured starts find, as a restart would.`,
    header: ["figure", "value"],
    rows: [
      ["size", `${round(b.bytes / 2 ** 20, 1)} MiB (${int(b.bytes)} B)`],
      [
        `cold start, spawn → first 200 on / (median of ${cs.length})`,
        `${ms(median(cs))} (${round(Math.min(...cs), 1)}–${round(Math.max(...cs), 1)})`,
      ],
      ["CPU the process used by its first 200 (median)", ms(median(b.coldStartCpuMs))],
      ["idle RSS (2 s after start)", mib(b.load.idleMiB)],
      ["peak RSS under / load (VmHWM)", mib(b.load.peakMiB)],
      ["highest RSS sampled every 100 ms under load", mib(b.load.sampledMiB)],
      [
        "/ req/s of the binary under that load",
        `${int(b.load.measurement.rps)} (p99 ${ms(b.load.measurement.p99Ms)}, others ${pct(b.load.measurement.foreignCpu)})`,
      ],
    ],
  };
}

function htmlTable(r: Results): Table {
  return {
    title: "Pages compared (same components and loader data on both sides)",
    note: "same <main>: the page's <main> element is byte for byte the same on both sides (timestamps aside), so both render the same page; the rest is each side's shell and boot data.",
    header: [
      "path",
      "Brisk bytes",
      "Brisk sent (br, gzip accepted)",
      "reference bytes",
      "status Brisk / reference",
      "same <main>",
    ],
    rows: Object.entries(r.htmlBytes).map(([path, h]) => [
      path,
      int(h.brisk),
      `${int(h.briskSent)} (${h.briskCoding})`,
      int(h.reference),
      h.status.join(" / "),
      h.sameMain ? "yes" : "NO",
    ]),
  };
}

const us = (m: Measurement) => (m.serverCpu / m.rps) * 1e6;
const usDelta = (a: Measurement | undefined, b: Measurement | undefined) =>
  a && b ? `${Math.round(us(a) - us(b))} µs` : "–";

/**
 * Each missed throughput target split into layers, in CPU per response from the run's own rows: the reference, then
 * what Brisk adds, layer by layer (its page handler alone on Bun.serve, then the whole server with Sentry off, on,
 * and tracing at 0.1), against the CPU per response the target allows (the reference's, or the ceiling's, over the
 * target ratio: both sides are CPU-bound).
 */
function layersTable(r: Results, missed: Set<string>): Table {
  const t = r.throughput;
  const at = (list: Measurement[], server: string, path: string) =>
    list.find((x) => x.server === server && x.path === path);
  const row = (
    list: Measurement[],
    label: string,
    path: string,
    base: Measurement,
    targets: Array<[string, number]>,
  ) => {
    const [handler, off, on, tenth] = [HANDLER, OFF, ON, TRACED_TENTH].map((server) => at(list, server, path));
    const budget = targets.map(([sentry, ratio]) => `${sentry} ${Math.round(us(base) / ratio)} µs`).join(", ");
    return [
      label,
      `${Math.round(us(base))} µs`,
      usDelta(handler, base),
      usDelta(off, handler ?? base),
      usDelta(on, off),
      usDelta(tenth, on),
      on ? `${Math.round(us(on))} µs` : "–",
      budget,
    ];
  };
  const rows = [
    ...PER_REQUEST.filter((page) => missed.has(page.path)).map((page) =>
      row(
        t,
        `\`${page.path}\`${page.referencePath ? ` (against \`${page.referencePath}\`)` : ""}`,
        page.path,
        find(t, REF, page.path),
        [["on", page.on], ...(page.off ? [["off", page.off] as [string, number]] : [])],
      ),
    ),
    ...(missed.has(GUESTBOOK_PATH)
      ? [
          row(
            r.writes.measurements,
            `\`POST ${GUESTBOOK_PATH}\``,
            GUESTBOOK_PATH,
            find(r.writes.measurements, REF, GUESTBOOK_PATH),
            [["on", 0.7]],
          ),
        ]
      : []),
    ...[PATHS.home, PATHS.notFound]
      .filter((path) => missed.has(`ceiling ${path}`))
      .map((path) =>
        row(t, `\`${path}\` stored, against the static ceiling`, path, find(t, CEILING, PATHS.home), [["on", 0.5]]),
      ),
  ];
  return {
    title: "Where the missed throughput targets' time goes, layer by layer (CPU per response, this run's rows)",
    note:
      "Each column is one server's CPU per response less the one before it: the reference (or the static ceiling); Brisk's page handler alone on raw `Bun.serve` " +
      "(routing, loaders, outcomes, Brisk's React tree, boot data, headers and nonce: bench/ablation-server.ts); the whole server with Sentry off (the request " +
      "pipeline and Elysia's routing: the context, the Host check, the stored-page lookup, the render bound, the request id and security headers, the log line); " +
      "Sentry on (errors only: the request's isolation scope and its release-health session); tracing at 0.1. Budget: the CPU per response the target allows. " +
      "A stored answer has no handler row (it never reaches the pages). Read each column with the noise of its two rows (±15 µs on a shared machine); " +
      "`bun bench/layers.ts` times the small layers one by one, `bun bench/before-after.ts` measures a change against another checkout." +
      (rows.length ? "" : " Every throughput target was met."),
    header: [
      "case",
      "reference",
      "page handler",
      "request pipeline and Elysia",
      "Sentry scope and session",
      "tracing 0.1",
      "Brisk, Sentry on",
      "budget",
    ],
    rows,
  };
}

function targets(r: Results): Target[] {
  const t = r.throughput;
  const ttfb = median(r.streaming.brisk.map((x) => x.ttfbMs));
  const brisk = r.tunnel.find((x) => x.server === ON)!;
  const ref = r.tunnel.find((x) => x.server === REF)!;
  const ok = brisk.requests - brisk.non2xx;
  const lost = Math.max(0, ok - brisk.arrived);
  const w = r.weight;
  const sentryKnown = w.sentryCounted;
  const cold = median(r.binary.coldStartsMs);
  const { measurements: writes, connections, slices } = r.writes;
  const rowsWrong = writes.map((m) => rowsMismatch(m, connections, slices)).filter((x) => x !== undefined);
  const stored = writes.reduce((sum, m) => sum + m.rows, 0);
  const ceiling = find(t, CEILING, PATHS.home);
  const servers = { brisk: ON, reference: REF };
  const homeVisitor = (throttled: boolean, figure: "fcpMs" | "lcpMs", label: string, max: number) =>
    visitorRatio(r.visitors, servers, PATHS.home, throttled, figure, label, max);
  const homeSent = r.htmlBytes[PATHS.home]!;
  const perRequest = PER_REQUEST.flatMap((page): Target[] => {
    const ref = find(t, REF, page.path);
    const figure = (sentry: string) => `${page.figure} (\`${page.path}\`, rendered per request), ${sentry}`;
    return [
      boundRatioTarget(figure("Sentry on"), find(t, ON, page.path), ref, page.on),
      ...(page.off === undefined
        ? []
        : [boundRatioTarget(figure("Sentry off"), find(t, OFF, page.path), ref, page.off)]),
    ];
  });
  const tenth = extraCpu(find(t, TRACED_TENTH, PATHS.items), find(t, ON, PATHS.items));
  return [
    ...perRequest,
    {
      figure: `tracing 0.1 on \`${PATHS.items}\`, extra CPU per request`,
      measured: `${Math.round(tenth * 100)} %`,
      target: "≤ 10 %",
      pass: tenth <= 0.1,
    },
    {
      figure: "peak RSS, Sentry on, under the per-request load",
      measured: mib(r.perRequestPeakMiB),
      target: "≤ 120 MiB",
      pass: r.perRequestPeakMiB <= 120,
    },
    ratioTarget(
      "`/` req/s (prerendered; the reference renders it)",
      find(t, ON, PATHS.home),
      find(t, REF, PATHS.home),
      0.9,
    ),
    ratioTarget("404 req/s", find(t, ON, PATHS.notFound), find(t, REF, PATHS.notFound), 0.9),
    ceilingTarget("`/` req/s against the static ceiling", find(t, ON, PATHS.home), ceiling),
    ceilingTarget("404 req/s against the static ceiling", find(t, ON, PATHS.notFound), ceiling),
    homeVisitor(true, "lcpMs", "`/` LCP, 4× CPU, Fast 3G", 1),
    homeVisitor(true, "fcpMs", "`/` FCP, 4× CPU, Fast 3G", 1),
    homeVisitor(false, "fcpMs", "`/` unthrottled FCP", 1.1),
    ...perRequestVisitorTargets(r.visitors, servers, PATHS.items),
    {
      figure: "`/` HTML sent with `Accept-Encoding: br, gzip`",
      measured: `${int(homeSent.briskSent)} B (${homeSent.briskCoding})`,
      target: "≤ 3 KB",
      pass: homeSent.briskSent <= 3_000,
    },
    { figure: `\`${PATHS.stream}\` TTFB, median`, measured: ms(ttfb), target: "≤ 5 ms", pass: ttfb <= 5 },
    ratioTarget("tunnel req/s", brisk, ref, 0.7),
    {
      figure: "tunnel: every 2xx arrived at the ingest",
      measured: `${int(brisk.arrived)} of ${int(ok)} (lost ${lost})`,
      target: "all",
      pass: ok > 0 && lost === 0,
    },
    boundRatioTarget(
      `\`POST ${GUESTBOOK_PATH}\` req/s`,
      find(writes, ON, GUESTBOOK_PATH),
      find(writes, REF, GUESTBOOK_PATH),
      0.7,
    ),
    {
      figure: "guestbook: every answer stored its row",
      measured: rowsWrong.length ? rowsWrong.join("; ") : `${int(stored)} rows over ${writes.length} servers`,
      target: "all",
      pass: stored > 0 && rowsWrong.length === 0,
    },
    {
      figure: "critical-path JS for `/`, gzip",
      measured: kB(w.critical.gzip),
      target: "≤ 75 kB",
      pass: w.critical.gzip <= 75_000,
    },
    {
      figure: "all JS for `/` with Sentry, gzip",
      measured: sentryKnown ? kB(w.total.gzip) : `${kB(w.total.gzip)} (no Sentry code was fetched)`,
      target: "≤ 105 kB",
      pass: sentryKnown ? w.total.gzip <= 105_000 : undefined,
    },
    { figure: "binary cold start, median", measured: ms(cold), target: "≤ 60 ms", pass: cold <= 60 },
    {
      figure: "binary peak RSS under `/` load",
      measured: mib(r.binary.load.peakMiB),
      target: "≤ 120 MiB",
      pass: r.binary.load.peakMiB <= 120,
    },
  ];
}

function header(r: Results): string {
  const m = r.machine;
  const versions = Object.entries(m.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return [
    "# Brisk bench results",
    "",
    "Written by `bun run bench` (bench/run.ts). Every figure comes from the one run below; rerun to refresh.",
    "",
    `- **Date:** ${m.date}`,
    `- **Machine:** ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Linux ${m.kernel}`,
    `- **Versions:** ${versions}`,
    `- **Method:** ${r.pinning ? "each server pinned to core 0 with taskset, wrk (one thread) and the bench process with its fake Sentry ingest on core 1" : "no pinning (taskset or a second core missing)"}; ` +
      `wrk -c50, ${r.seconds} s per server and path in turns of ${Math.max(1, Math.round(r.seconds / 5))} s alternating with the other servers, after a warm-up each that lasts until the server's compiler has gone quiet (at least ${r.warmupSeconds} s); ` +
      "servers run as separate processes with NODE_ENV=production and their request log to /dev/null. " +
      "The pages are the bench's own app (bench/app). The reference is raw `Bun.serve` + `renderToReadableStream` of the same page components and loader data in the same kind of shell (bench/reference-server.tsx). " +
      `The whole run took ${Math.round(r.wallSeconds)} s, while processes outside the bench used ${round(r.foreignCpu, 2)} cores on average.`,
    "",
  ].join("\n");
}

/** The throughput targets this run missed: the per-request pages by path, the form post, and the stored pages against the ceiling. */
function missedThroughput(r: Results): Set<string> {
  const t = r.throughput;
  const rate = (server: string, path: string) => find(t, server, path).rps;
  const missed = new Set<string>();
  for (const page of PER_REQUEST) {
    const ref = rate(REF, page.path);
    if (rate(ON, page.path) / ref < page.on || (page.off !== undefined && rate(OFF, page.path) / ref < page.off))
      missed.add(page.path);
    if (page.path === PATHS.items && extraCpu(find(t, TRACED_TENTH, page.path), find(t, ON, page.path)) > 0.1)
      missed.add(page.path);
  }
  const writes = r.writes.measurements;
  if (find(writes, ON, GUESTBOOK_PATH).rps / find(writes, REF, GUESTBOOK_PATH).rps < 0.7) missed.add(GUESTBOOK_PATH);
  const ceiling = rate(CEILING, PATHS.home);
  for (const path of [PATHS.home, PATHS.notFound]) if (rate(ON, path) / ceiling < 0.5) missed.add(`ceiling ${path}`);
  return missed;
}

export function buildReport(r: Results): { terminal: string; markdown: string } {
  const tables = [
    throughputTable(r),
    tracingTable(r),
    streamingTable(r),
    visitorTable(
      r.visitors,
      PATHS.home,
      "The static ceiling serves Brisk's own / (one fixed string, uncompressed) and the same built files.",
    ),
    visitorTable(r.visitors, PATHS.items, "The 10 KB items page, rendered for every request on both sides."),
    tunnelTable(r),
    writesTable(r),
    weightTable(r.weight),
    binaryTable(r),
    htmlTable(r),
  ];
  const top = markdown(targetsTable(targets(r)));
  const details = [layersTable(r, missedThroughput(r)), ...tables].map(markdown).join("\n");
  return { terminal: `${top}\n${details}`, markdown: `${header(r)}\n${top}\n${details}` };
}
