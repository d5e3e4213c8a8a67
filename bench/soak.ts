// soak.ts: a minute of mixed load on the bench app's production binary while its Sentry upstream flaps, then
// the attacks of bench/soak-attacks.ts; prints what held and exits 1 when anything did not.
//
// Run:   bun bench/soak.ts            (or bench/soak)
//        SOAK_SECONDS=300 SOAK_CONCURRENCY=200 SOAK_ATTACK_SECONDS=20 bun bench/soak.ts
//
// What it does: builds the bench app's binary (bench/app, as `bun run build` builds an app) into a temporary
// folder, starts a fake Sentry ingest in this process and the binary as a separate process (NODE_ENV=production,
// SENTRY_DSN at the fake ingest, MONITORING_TIMEOUT_MS=1000) whose stdout is a named pipe drained by a log
// shipper (`cat`), as on a container platform. It runs SOAK_CONCURRENCY (100) keep-alive fetch loops for
// SOAK_SECONDS (60). Each loop picks "/" or a page of bench/app/site.ts (each as often) or a tunnel POST (three
// times as often) with a ~1.5 KB browser envelope. 10% of streamed pages (stream, late-error, late-not-found)
// are dropped by the client after the shell. The fake upstream cycles up 4 s, slow 3 s (answers after 1.5 s,
// past the tunnel's 1 s timeout), up 3 s, down 3 s.
//
// Then the attacks, SOAK_ATTACK_SECONDS (10) each (soak-attacks.ts): 300 raw sockets each posting a 1 MiB
// envelope in two parts (1 KB, a pause, the rest), over and over, while the upstream answers after 0.5 s;
// stalled uploads (three other loopback addresses, 96 connections each to the guestbook's action and to the
// tunnel, sending headers and Content-Length and then nothing, reconnecting when closed) while a visitor
// signs the guestbook and reports errors, every one of which must succeed (303, 200); the same from eight
// addresses with 8 posts each (100 bytes sent) to each pool, every slot, and then from eight others trickling
// those bodies at 5,000 B/s (soak-uploads.ts), while a visitor signs the guestbook by form and API and reports
// errors: the first of each must be served within 2 s, and at least 90 % of them; a
// HEAD flood over every page, streamed ones most; and light load while the log shipper is killed and, a few
// seconds later, started again. At the end the server gets SIGTERM. Its stdout and stderr are read throughout.
// Last, the abandoned-stream attack (soak-abandon.ts), each case on a fresh server of the same binary.
//
// What it prints, last:
//   the route table: every target, the statuses it may answer, and the statuses it did answer;
//   one line per attack: what it sent, how the server answered, its peak RSS and error lines;
//   PASS/FAIL unexpected statuses: any answer outside the expected set, or a request that failed outright;
//   PASS/FAIL RSS growth after warm-up: the server's resident memory (sampled twice a second), median of
//             the 10 s after the warm-up (first 1/6 of the run, at most 10 s) against the median of the last
//             10 s of the mixed load; must stay under +10%. The line above the table shows the median per 10 s:
//             a leak climbs, a healthy heap levels off (under load it swings ±10% between collections);
//   PASS/FAIL peak RSS: the server's peak resident memory over the whole run (VmHWM), under 256 MiB;
//   PASS/FAIL unhandled rejections, stderr, error logs: any stderr line, non-JSON stdout line, or log line
//             above info, except those of the pages that fail on purpose (server-error, render-error,
//             late-error), the tunnel's 502/504 and the server's "sentry unreachable" warning while the upstream
//             failed, the log shipper's restart (one torn line, one stderr line saying lines are dropped) and
//             the server's count of the lines it dropped;
//             up to 5 offending lines are quoted;
//   PASS/FAIL attacks: no answer outside an attack's expected set, no error-level line from an attack, an
//             attack's own targets met (the stall and the trickle from eight addresses), and the log shipper's restart
//             followed by the server's count of the lines it could not write;
//   PASS/FAIL tunnel 2xx envelopes at the ingest: every envelope the tunnel answered 2xx for (browser
//             envelopes and the 1 MiB uploads), by event_id, reached the fake ingest;
//   then a line per abandoned-stream case and PASS/FAIL abandoned streams (soak-abandon.ts).
// The exit code is 0 only when all pass.
import { closeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startFakeIngest, type FakeIngest } from "brisk/test";
import { withBinary, type Binary } from "./lib/binary.ts";
import { until200 } from "./lib/proc.ts";
import { soakServerEnv } from "./lib/soak-env.ts";
import { soakAbandonedStreams } from "./soak-abandon.ts";
import { runAttacks, type AttackResult } from "./soak-attacks.ts";
import { emptyCounts, runLoad, soakTargets } from "./soak-load.ts";
import { eachLine, emptyTally, sortStderrLine, sortStdoutLine } from "./soak-logs.ts";
import { report, type RssSample } from "./soak-report.ts";
import { sampleRss } from "./soak-rss.ts";
import { startShipper } from "./soak-shipper.ts";

const SECONDS = Number(Bun.env.SOAK_SECONDS ?? 60);
const CONCURRENCY = Number(Bun.env.SOAK_CONCURRENCY ?? 100);
const WARMUP_SECONDS = Math.min(10, Math.round(SECONDS / 6));
const ATTACK_SECONDS = Number(Bun.env.SOAK_ATTACK_SECONDS ?? 10);
const ABORT_SHARE = 0.1;
const TUNNEL_TIMEOUT_MS = 1_000;

/** The upstream's cycle: [mode, seconds]. Slow answers after 1.5 s, so the tunnel (1 s) gives up first. */
const UPSTREAM_CYCLE = [
  ["up", 4],
  ["slow", 3],
  ["up", 3],
  ["down", 3],
] as const;

/** Flaps the fake upstream until `until`; returns the seconds spent in each mode. */
async function flapUpstream(ingest: FakeIngest, until: number): Promise<Record<string, number>> {
  const spent: Record<string, number> = {};
  for (let i = 0; performance.now() < until; i++) {
    const [mode, seconds] = UPSTREAM_CYCLE[i % UPSTREAM_CYCLE.length]!;
    if (mode === "slow") await ingest.setMode("slow", { delayMs: TUNNEL_TIMEOUT_MS + 500 });
    else await ingest.setMode(mode);
    const started = performance.now();
    await Bun.sleep(Math.max(0, Math.min(seconds * 1000, until - started)));
    spent[mode] = (spent[mode] ?? 0) + (performance.now() - started) / 1000;
  }
  await ingest.setMode("up");
  return spent;
}

/** The event_id of each envelope at the ingest; its list is drained as it goes, so memory stays flat. */
function collectArrivals(ingest: FakeIngest) {
  const arrived = new Set<string>();
  const drain = () => {
    for (const r of ingest.received.splice(0)) {
      const end = r.text.indexOf("\n");
      try {
        const id = (JSON.parse(end < 0 ? r.text : r.text.slice(0, end)) as { event_id?: unknown }).event_id;
        if (typeof id === "string") arrived.add(id);
      } catch {
        // Not an envelope: nothing the tunnel accepted.
      }
    }
  };
  const timer = setInterval(drain, 250);
  return { arrived, stop: () => (clearInterval(timer), drain()) };
}

/** The binary as production runs it, its log lines sorted as they come. */
async function startBrisk(binary: Binary, ingest: FakeIngest) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dir = await mkdtemp(join(tmpdir(), "brisk-soak-"));
  const logs = emptyTally();
  const shipper = startShipper(dir, (line, first) => sortStdoutLine(logs, line, first));
  // Not pinned to a core, unlike the throughput bench: a soak wants the server's behaviour, not a stable rate.
  const server = Bun.spawn([binary.path], {
    cwd: dir,
    env: soakServerEnv(port, ingest.dsn(), dir, { MONITORING_TIMEOUT_MS: String(TUNNEL_TIMEOUT_MS) }),
    stdout: shipper.fd,
    stderr: "pipe",
  });
  // The server holds the pipe now; once it exits, the shipper reads to the end.
  closeSync(shipper.fd);
  const reading = Promise.all([shipper.ended(), eachLine(server.stderr, (line) => sortStderrLine(logs, line))]).finally(
    () => rm(dir, { recursive: true, force: true }),
  );
  try {
    await Promise.race([
      until200(`${origin}/healthz`, performance.now(), 20_000, 50),
      server.exited.then((code) => Promise.reject(new Error(`server exited with ${code} before it answered`))),
    ]);
  } catch (error) {
    server.kill("SIGKILL");
    throw error;
  }
  return { server, origin, port, logs, reading, shipper };
}

/** SIGTERM, as a deploy sends it; describes how the process ended. */
async function stopBrisk({ server, logs, reading }: Awaited<ReturnType<typeof startBrisk>>): Promise<string> {
  const alive = server.exitCode === null;
  server.kill("SIGTERM");
  const killer = setTimeout(() => server.kill("SIGKILL"), 15_000);
  const code = await server.exited;
  clearTimeout(killer);
  await reading;
  const stopped = logs.lifecycle.find((l) => l.msg === "stopped");
  const drained = stopped ? `, drained ${stopped.drained} in ${stopped.ms} ms` : "";
  return `${alive ? "" : "had died during the load; "}exit ${code ?? server.signalCode}${drained}`;
}

async function main(binary: Binary): Promise<boolean> {
  const ingest = await startFakeIngest();
  const arrivals = collectArrivals(ingest);
  const brisk = await startBrisk(binary, ingest);
  const targets = soakTargets();
  const counts = emptyCounts();
  let rss: RssSample[] = [];
  let upstreamSeconds: Record<string, number> = {};
  let attacks: AttackResult[] = [];
  let exit: string;
  try {
    const until = performance.now() + SECONDS * 1000;
    const since = Date.now();
    const sampler = sampleRss(brisk.server.pid, since);
    console.log(`soak: ${SECONDS} s against ${brisk.origin} (pid ${brisk.server.pid}), concurrency ${CONCURRENCY}…`);
    const options = {
      origin: brisk.origin,
      dsn: ingest.dsn(),
      concurrency: CONCURRENCY,
      until,
      abortShare: ABORT_SHARE,
    };
    [upstreamSeconds] = await Promise.all([flapUpstream(ingest, until), runLoad(options, targets, counts)]);
    // Streamed pages log when they finish: let the last lines out first.
    await Bun.sleep(1_000);
    const context = {
      origin: brisk.origin,
      port: brisk.port,
      dsn: ingest.dsn(),
      ingest,
      shipper: brisk.shipper,
      seconds: ATTACK_SECONDS,
      tunnelTimeoutMs: TUNNEL_TIMEOUT_MS,
      accepted: counts.accepted,
    };
    attacks = await runAttacks(
      context,
      () => (Date.now() - since) / 1000,
      (name) => {
        console.log(`soak: attack: ${name} (${ATTACK_SECONDS} s)…`);
        brisk.logs.phase = name;
      },
    );
    brisk.logs.phase = "shutdown";
    rss = await sampler.stop();
  } finally {
    exit = await stopBrisk(brisk);
    arrivals.stop();
    await ingest.stop();
  }
  const result = {
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    concurrency: CONCURRENCY,
    targets,
    counts,
    rss,
    upstreamSeconds,
    attacks,
    exit,
  };
  const { text, pass } = report({ ...result, logs: brisk.logs, arrived: arrivals.arrived });
  console.log(text);
  return pass;
}

const pass = await withBinary(async (binary) => {
  const soaked = await main(binary);
  return (await soakAbandonedStreams(binary.path)) && soaked;
});
process.exit(pass ? 0 : 1);
