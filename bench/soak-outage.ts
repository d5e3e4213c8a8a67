// soak-outage.ts: a 30 s Sentry outage with a server restart in the middle, against the production binary; counts
// the server's error events that reached Sentry once it was back (lost and duplicated), and prints its peak RSS.
//
// Run:   bun bench/soak-outage.ts        (OUTAGE_SECONDS=30 OUTAGE_RATE=2 by default)
//
// What it does: builds the bench app's binary (bench/lib/binary.ts) into a temporary folder, starts a fake Sentry ingest
// and takes it down, starts the binary (SENTRY_DSN at the ingest, DATA_DIR in the temporary folder), and asks
// for /server-error OUTAGE_RATE times a second: each answer's digest is one Sentry event the server
// owes. Half-way through the outage the binary gets SIGTERM and is started again on the same DATA_DIR. Then
// the ingest comes back; the phase waits up to 120 s for every digest to arrive, and 2 s more for duplicates.
// Sentry's offline transport retries 5 s after a failure, then 10, 20… and sends what it kept one envelope per
// 100 ms once an attempt succeeds: a backlog drains at about 10 events a second.
// `sentryOutagePhase()` is the phase alone, for bench/soak.ts to run after its load.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startFakeIngest, type FakeIngest } from "brisk/test";
import { buildBinary, type Binary } from "./lib/binary.ts";
import { definedEnv, memoryOf, until200 } from "./lib/proc.ts";

/** The bench app's page whose loader throws: every answer is a 500 with a digest, one Sentry event. */
const FAILING_PAGE = "/server-error";

export interface OutageResult {
  owed: number;
  /** From the ingest's return to the last owed event's arrival. */
  drainSeconds: number;
  arrived: number;
  lost: number;
  duplicated: number;
  peakRssMiB: number;
  /** Log lines of level warn or error other than the failing page's own. */
  logLines: string[];
  pass: boolean;
}

const DIGEST = /Digest: <code>([0-9a-z]{10})<\/code>/;

async function startServer(binary: Binary, ingest: FakeIngest, dataDir: string, lines: string[]) {
  const port = await freePort();
  const proc = Bun.spawn([binary.path], {
    cwd: dataDir,
    env: definedEnv({
      ...Bun.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      SENTRY_DSN: ingest.dsn(),
      DATA_DIR: dataDir,
    }),
    stdout: "pipe",
    stderr: "inherit",
  });
  void (async () => {
    let rest = "";
    for await (const chunk of proc.stdout) {
      rest += new TextDecoder().decode(chunk);
      const parts = rest.split("\n");
      rest = parts.pop()!;
      lines.push(...parts.filter(Boolean));
    }
  })();
  const origin = `http://127.0.0.1:${port}`;
  await until200(`${origin}/healthz`, performance.now(), 20_000, 20);
  return { proc, origin };
}

export async function sentryOutagePhase({
  binary,
  seconds = 30,
  rate = 2,
}: {
  binary: Binary;
  seconds?: number;
  rate?: number;
}): Promise<OutageResult> {
  const work = await mkdtemp(join(tmpdir(), "brisk-outage-"));
  const ingest = await startFakeIngest();
  const lines: string[] = [];
  const owed = new Set<string>();
  let peakRssMiB = 0;
  try {
    await ingest.setMode("down");
    let server = await startServer(binary, ingest, work, lines);
    const ends = performance.now() + seconds * 1000;
    let restarted = false;
    while (performance.now() < ends) {
      const html = await (await fetch(`${server.origin}${FAILING_PAGE}`).catch(() => undefined))?.text();
      const digest = html && DIGEST.exec(html)?.[1];
      if (digest) owed.add(digest);
      peakRssMiB = Math.max(peakRssMiB, memoryOf(server.proc.pid).rssMiB);
      if (!restarted && performance.now() > ends - (seconds * 1000) / 2) {
        restarted = true;
        server.proc.kill("SIGTERM");
        await server.proc.exited;
        server = await startServer(binary, ingest, work, lines);
      }
      await Bun.sleep(1000 / rate);
    }
    await ingest.setMode("up");
    const back = performance.now();
    const arrivedDigests = () => ingest.events().map((e) => e.tags?.digest as string);
    const deadline = back + 120_000;
    while ([...owed].some((d) => !arrivedDigests().includes(d)) && performance.now() < deadline) await Bun.sleep(250);
    const drainSeconds = (performance.now() - back) / 1000;
    await Bun.sleep(2_000);
    server.proc.kill("SIGTERM");
    await server.proc.exited;
    const arrived = arrivedDigests();
    const counts = new Map<string, number>();
    for (const d of arrived) counts.set(d, (counts.get(d) ?? 0) + 1);
    const lost = [...owed].filter((d) => !counts.has(d)).length;
    const duplicated = [...counts.values()].filter((n) => n > 1).length;
    const logLines = lines.filter((l) => /"level":"(warn|error)"/.test(l) && !l.includes(`"path":"${FAILING_PAGE}"`));
    return {
      owed: owed.size,
      drainSeconds,
      arrived: new Set(arrived).size,
      lost,
      duplicated,
      peakRssMiB,
      logLines,
      pass: lost === 0 && duplicated === 0,
    };
  } finally {
    await ingest.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const work = await mkdtemp(join(tmpdir(), "brisk-outage-build-"));
  try {
    const binary = await buildBinary(work);
    const seconds = Number(Bun.env.OUTAGE_SECONDS ?? 30);
    const r = await sentryOutagePhase({ binary, seconds, rate: Number(Bun.env.OUTAGE_RATE ?? 2) });
    console.log(`Sentry down ${seconds} s, the server restarted half-way:`);
    console.log(
      `  server events owed ${r.owed}, arrived ${r.arrived}, lost ${r.lost}, duplicated ${r.duplicated}; all in ${r.drainSeconds.toFixed(1)} s after Sentry came back; peak RSS ${r.peakRssMiB.toFixed(1)} MiB`,
    );
    console.log(`  warn/error lines besides the failing page's own (${r.logLines.length}):`);
    for (const line of r.logLines.slice(0, 10)) console.log(`    ${line}`);
    console.log(r.pass ? "PASS nothing lost, nothing twice" : "FAIL events lost or duplicated");
    process.exit(r.pass ? 0 : 1);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
