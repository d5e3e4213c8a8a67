// soak-abandon.ts: the soak's abandoned-stream attack (red team F4): visitors who leave a streamed answer at its
// first bytes and come straight back. Each case gets a fresh server, so its peak is its own.
//
// Run:   bun bench/soak-abandon.ts                 (builds the bench app's binary, as bench/soak.ts does)
//        bun bench/soak-abandon.ts <binary>        (a binary built elsewhere, e.g. from an older commit)
// bench/soak.ts runs it after its own attacks.
//
// Per case (`/stream` asked in br, in gzip, and `/__data/stream` in br): the binary alone on a port (production,
// Sentry on at a fake ingest, as bench/soak.ts starts it), then ABANDON_CONNECTIONS (50) connections for
// ABANDON_SECONDS (5), each asking, reading the first bytes and closing, at once again (bench/lib/abandon-client.ts,
// on a worker thread), from ABANDON_ADDRESSES (1: the red team's; 16 take every render place, not one visitor's
// share) loopback addresses; then 15 s of quiet. Its RSS is sampled twice a second (soak-rss.ts); it prints the
// answers by status (503: shed past RENDER_MAX_IN_FLIGHT), RSS before, the peak (VmHWM) and RSS 15 s after, the
// load average, and PASS/FAIL against the targets: peak ≤ 300 MiB, ≤ 200 MiB 15 s after.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startFakeIngest } from "brisk/test";
import { abandonStreams } from "./lib/abandon-client.ts";
import { withBinary } from "./lib/binary.ts";
import { loadAverage } from "./lib/load.ts";
import { memoryOf, stopChild, until200 } from "./lib/proc.ts";
import { soakServerEnv } from "./lib/soak-env.ts";
import { int, round } from "./lib/stats.ts";
import { sampleRss } from "./soak-rss.ts";

const CONNECTIONS = Number(Bun.env.ABANDON_CONNECTIONS ?? 50);
const SECONDS = Number(Bun.env.ABANDON_SECONDS ?? 5);
const ADDRESSES = Number(Bun.env.ABANDON_ADDRESSES ?? 1);
const QUIET_SECONDS = 15;
export const ABANDON_PEAK_LIMIT_MIB = 300;
export const ABANDON_AFTER_LIMIT_MIB = 200;

const CASES = [
  { path: "/stream", encoding: "br" },
  { path: "/stream", encoding: "gzip" },
  { path: "/__data/stream", encoding: "br" },
];

interface CaseResult {
  name: string;
  answered: number;
  failed: number;
  statuses: Record<string, number>;
  beforeMiB: number;
  peakMiB: number;
  afterMiB: number;
  /** Seconds after the attack until RSS was under the limit again; undefined if it never was. */
  underAfter: number | undefined;
  /** The load average as the quiet ended. */
  load: string;
}

async function runCase(
  binaryPath: string,
  dsn: string,
  { path, encoding }: (typeof CASES)[number],
): Promise<CaseResult> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), "brisk-abandon-"));
  const server = Bun.spawn([binaryPath], {
    cwd: dir,
    env: soakServerEnv(port, dsn, dir),
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    await until200(`http://127.0.0.1:${port}/healthz`, performance.now(), 20_000, 50);
    const beforeMiB = memoryOf(server.pid).rssMiB;
    const since = Date.now();
    const sampler = sampleRss(server.pid, since);
    const visits = await abandonStreams({
      port,
      path,
      encoding,
      connections: CONNECTIONS,
      seconds: SECONDS,
      addresses: ADDRESSES,
    });
    const ended = (Date.now() - since) / 1000;
    await Bun.sleep(QUIET_SECONDS * 1000);
    const samples = await sampler.stop();
    const { rssMiB: afterMiB, peakMiB } = memoryOf(server.pid);
    const under = samples.find((s) => s.at >= ended && s.rssMiB <= ABANDON_AFTER_LIMIT_MIB);
    return {
      name: `${path} ${encoding}`,
      ...visits,
      beforeMiB,
      peakMiB,
      afterMiB,
      underAfter: under && under.at - ended,
      load: loadAverage(),
    };
  } finally {
    await stopChild(server);
    await rm(dir, { recursive: true, force: true });
  }
}

const passes = (r: CaseResult) => r.peakMiB <= ABANDON_PEAK_LIMIT_MIB && r.afterMiB <= ABANDON_AFTER_LIMIT_MIB;

/** Runs every case on `binaryPath`, prints a line each and the verdict; true when all pass. */
export async function soakAbandonedStreams(binaryPath: string): Promise<boolean> {
  const ingest = await startFakeIngest();
  const results: CaseResult[] = [];
  try {
    for (const c of CASES) {
      console.log(
        `soak: abandoned streams: ${c.path} ${c.encoding}, ${CONNECTIONS} connections for ${SECONDS} s, then ${QUIET_SECONDS} s of quiet…`,
      );
      results.push(await runCase(binaryPath, ingest.dsn(), c));
    }
  } finally {
    await ingest.stop();
  }
  const width = Math.max(...results.map((r) => r.name.length));
  console.log(
    `\nabandoned streams (${CONNECTIONS} connections from ${ADDRESSES} address(es) leaving at the first bytes, ${SECONDS} s, a fresh server each):`,
  );
  for (const r of results) {
    const under = r.underAfter === undefined ? "never" : `${round(r.underAfter)} s`;
    console.log(
      `  ${r.name.padEnd(width)}  ${int(r.answered)} answered (${Object.entries(r.statuses)
        .map(([s, n]) => `${s} ×${int(n)}`)
        .join(", ")}), ${int(r.failed)} failed; ` +
        `RSS before ${round(r.beforeMiB)} MiB, peak ${round(r.peakMiB)} MiB, ${QUIET_SECONDS} s after ${round(r.afterMiB)} MiB ` +
        `(under ${ABANDON_AFTER_LIMIT_MIB} after ${under}); load ${r.load}`,
    );
  }
  const pass = results.every(passes);
  console.log(
    `${pass ? "PASS" : "FAIL"} abandoned streams: peak ≤ ${ABANDON_PEAK_LIMIT_MIB} MiB, ≤ ${ABANDON_AFTER_LIMIT_MIB} MiB ${QUIET_SECONDS} s after`,
  );
  return pass;
}

if (import.meta.main) {
  process.exit((await withBinary((binary) => soakAbandonedStreams(binary.path), Bun.argv[2])) ? 0 : 1);
}
