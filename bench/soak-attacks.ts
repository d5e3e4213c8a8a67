// soak-attacks.ts: what the soak does to the server after its mixed load, one attack at a time: an upload
// flood against a slow upstream, a HEAD flood, and a log shipper that dies and comes back. Each reports what
// it sent and how the server answered; the report holds the run to its targets (peak RSS, no error line from
// an attack, no envelope lost).
import type { FakeIngest } from "../test/support/fake-ingest.ts";
import { emptyCounts, runLoad, soakTargets, type LoadCounts, type Target } from "./soak-load.ts";
import type { LogShipper } from "./soak-shipper.ts";
import { uploadFlood } from "./soak-uploads.ts";

export interface AttackContext {
  origin: string;
  port: number;
  /** The configured DSN, as browser SDKs write it in envelope headers. */
  dsn: string;
  ingest: FakeIngest;
  shipper: LogShipper;
  /** How long each attack lasts. */
  seconds: number;
  /** The tunnel's timeout, which a "slow" upstream stays under. */
  tunnelTimeoutMs: number;
  /** event_id of every envelope the tunnel answered 2xx for: each must reach the ingest. */
  accepted: Set<string>;
}

export interface AttackResult {
  name: string;
  targets: Target[];
  counts: LoadCounts;
  /** Seconds since the load began, for the RSS samples and the log lines of the attack. */
  from: number;
  to: number;
  note?: string;
}

export interface Attack {
  /** Also the phase the server's log lines are counted under while it runs. */
  name: string;
  run(ctx: AttackContext): Promise<Pick<AttackResult, "targets" | "counts" | "note">>;
}

/** The pages with their documented statuses; streamed ones `streamedWeight` times as often. */
function pageTargets(streamedWeight: number): Target[] {
  return soakTargets()
    .filter((t) => !t.tunnel)
    .map((t) => ({ ...t, weight: t.streamed ? streamedWeight : 1 }));
}

const UPLOAD_SOCKETS = 300;
/** Under MONITORING_MAX_BYTES (1 MiB), so that every upload is one the tunnel may take. */
const UPLOAD_BYTES = 1_040_000;

const uploads: Attack = {
  name: `1 MiB uploads from ${UPLOAD_SOCKETS} sockets, slow upstream`,
  async run(ctx) {
    // Slow, but well inside the tunnel's timeout, which also covers sending the 1 MiB on: each admitted
    // upload holds its slot, and its body, that much longer.
    await ctx.ingest.setMode("slow", { delayMs: ctx.tunnelTimeoutMs / 4 });
    const result = await uploadFlood({ port: ctx.port, dsn: ctx.dsn, sockets: UPLOAD_SOCKETS, seconds: ctx.seconds, bytes: UPLOAD_BYTES, pauseMs: 500 });
    await ctx.ingest.setMode("up");
    for (const id of result.accepted) ctx.accepted.add(id);
    const counts = emptyCounts();
    const target: Target = { name: "POST /monitoring (1 MiB)", path: "/monitoring", expected: [200, 429, 504], streamed: false, tunnel: true, weight: 1 };
    counts.statuses.set(target.name, result.statuses);
    counts.requests = [...result.statuses.values()].reduce((a, b) => a + b, 0);
    return { targets: [target], counts, note: `${result.accepted.size} accepted, the rest refused before their bodies were read` };
  },
};

const heads: Attack = {
  name: "HEAD flood, streamed pages three times as often",
  async run(ctx) {
    const targets = pageTargets(3);
    const counts = emptyCounts();
    const until = performance.now() + ctx.seconds * 1000;
    await runLoad({ origin: ctx.origin, dsn: ctx.dsn, concurrency: 50, until, abortShare: 0, method: "HEAD" }, targets, counts);
    return { targets, counts };
  },
};

/** The shipper is dead for the middle of the attack, while pages keep being asked for. */
const logPipe: Attack = {
  name: "log shipper killed, then back",
  async run(ctx) {
    const targets = pageTargets(1);
    const counts = emptyCounts();
    const ms = ctx.seconds * 1000;
    const until = performance.now() + ms;
    const load = runLoad({ origin: ctx.origin, dsn: ctx.dsn, concurrency: 10, until, abortShare: 0.1 }, targets, counts);
    await Bun.sleep(ms / 5);
    await ctx.shipper.kill();
    await Bun.sleep((ms * 2) / 5);
    ctx.shipper.restart();
    await load;
    return { targets, counts, note: `shipper dead for ${((ms * 2) / 5 / 1000).toFixed(1)} s` };
  },
};

/**
 * Run in this order. Finding 10 of issue 14 (nothing lost when Sentry is down) adds its attack here: a 30 s
 * outage of the fake ingest with a server restart in the middle, counting events and envelopes lost.
 */
export const ATTACKS: readonly Attack[] = [uploads, heads, logPipe];

/**
 * Runs each attack, then a second for its last log lines (streamed pages log when they end); `onPhase` names
 * the attack whose lines are being read, `elapsed` is the seconds since the load began.
 */
export async function runAttacks(ctx: AttackContext, elapsed: () => number, onPhase: (name: string) => void): Promise<AttackResult[]> {
  const results: AttackResult[] = [];
  for (const attack of ATTACKS) {
    onPhase(attack.name);
    const from = elapsed();
    const result = await attack.run(ctx);
    await Bun.sleep(1_000);
    results.push({ name: attack.name, from, to: elapsed(), ...result });
  }
  return results;
}
