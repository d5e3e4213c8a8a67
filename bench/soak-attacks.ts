// soak-attacks.ts: what the soak does to the server after its mixed load, one attack at a time: an upload
// flood against a slow upstream, stalled uploads while visitors post (from three clients, and from eight
// that ask for every slot), uploads trickled at the pace from eight others, a HEAD flood, and a log shipper that dies and comes back. Each reports what
// it sent and how the server answered; the report holds the run to its targets (peak RSS, no error line from
// an attack, no envelope lost).
import type { FakeIngest } from "brisk/test";
import { stallUploads } from "../test/support/stalled-uploads.ts";
import { browserEnvelope } from "./lib/envelope.ts";
import { emptyCounts, runLoad, soakTargets, type LoadCounts, type Target } from "./soak-load.ts";
import type { LogShipper } from "./soak-shipper.ts";
import {
  STALL_ADDRESSES,
  STALLS_PER_ADDRESS,
  TRICKLE_BYTES_PER_SECOND,
  missedTargets,
  stalledWrites,
  uploadFlood,
  writesServed,
  type SlotAttack,
} from "./soak-uploads.ts";

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
  /** Targets of its own the attack missed: each fails the soak. */
  problems?: string[];
}

export interface Attack {
  /** Also the phase the server's log lines are counted under while it runs. */
  name: string;
  run(ctx: AttackContext): Promise<Pick<AttackResult, "targets" | "counts" | "note" | "problems">>;
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
    const result = await uploadFlood({
      port: ctx.port,
      dsn: ctx.dsn,
      sockets: UPLOAD_SOCKETS,
      seconds: ctx.seconds,
      bytes: UPLOAD_BYTES,
      pauseMs: 500,
    });
    await ctx.ingest.setMode("up");
    for (const id of result.accepted) ctx.accepted.add(id);
    const counts = emptyCounts();
    const target: Target = {
      name: "POST /monitoring (1 MiB)",
      path: "/monitoring",
      expected: [200, 429, 504],
      streamed: false,
      tunnel: true,
      weight: 1,
    };
    counts.statuses.set(target.name, result.statuses);
    counts.requests = [...result.statuses.values()].reduce((a, b) => a + b, 0);
    return {
      targets: [target],
      counts,
      note: `${result.accepted.size} accepted, the rest refused before their bodies were read`,
    };
  },
};

/** One answer of `target`'s, counted. */
function tally(counts: LoadCounts, target: Target, status: string): void {
  const statuses = counts.statuses.get(target.name) ?? new Map<string, number>();
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  counts.statuses.set(target.name, statuses);
  counts.requests++;
}

const STALLERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4"];
/** Each staller alone holds more posts than either pool has slots (64). */
const STALLED_PER_CLIENT = 96;

/**
 * Issue 23, R2: clients that send a post's headers and Content-Length and then nothing, reconnecting whenever
 * they are closed, to the guestbook's action and to the tunnel, while a visitor (from 127.0.0.1) keeps
 * signing the guestbook and sending error reports: every one of those must succeed.
 */
const stalledUploads: Attack = {
  name: `stalled uploads from ${STALLERS.length} clients, ${STALLED_PER_CLIENT} each to the guestbook's action and the tunnel`,
  async run(ctx) {
    const form = { "content-type": "application/x-www-form-urlencoded", origin: ctx.origin };
    const envelope = { "content-type": "text/plain;charset=UTF-8", origin: ctx.origin };
    const stall = { port: ctx.port, from: STALLERS, connections: STALLED_PER_CLIENT };
    const attacks = [
      stallUploads({ ...stall, path: "/guestbook", headers: form }),
      stallUploads({ ...stall, path: "/monitoring", headers: envelope }),
    ];
    await Promise.all(attacks.map((a) => a.ready));
    const sign: Target = {
      name: "POST /guestbook (visitor, during the stall)",
      path: "/guestbook",
      expected: [303],
      streamed: false,
      tunnel: false,
      weight: 1,
    };
    const report: Target = {
      name: "POST /monitoring (visitor, during the stall)",
      path: "/monitoring",
      expected: [200],
      streamed: false,
      tunnel: true,
      weight: 1,
    };
    const counts = emptyCounts();
    const post = async (target: Target, init: RequestInit) => {
      const status = await fetch(ctx.origin + target.path, { method: "POST", redirect: "manual", ...init }).then(
        async (r) => (await r.arrayBuffer(), String(r.status)),
        (error: Error) => `error: ${error.name}`,
      );
      tally(counts, target, status);
    };
    const until = performance.now() + ctx.seconds * 1000;
    let n = 0;
    while (performance.now() < until) {
      n++;
      await Promise.all([
        post(sign, {
          headers: form,
          body: new URLSearchParams({ name: "Soak visitor", message: `Signed during the stall, ${n}` }).toString(),
        }),
        post(report, { headers: envelope, body: browserEnvelope(ctx.dsn) }),
      ]);
      await Bun.sleep(100);
    }
    const ended = await Promise.all(attacks.map((a) => a.stop()));
    const stalled = ended.map(
      ({ opened, answers }, i) =>
        `${i ? "tunnel" : "guestbook"}: ${opened} opened, ${[...answers].map(([s, k]) => `${s} ×${k}`).join(", ")}`,
    );
    return { targets: [sign, report], counts, note: `stalled posts: ${stalled.join("; ")}` };
  },
};

/**
 * Issue 29 (red team F6): eight addresses stall a share's worth of posts each to the guestbook's action and to
 * the tunnel, asking for every slot of both pools; issue 36 (red team N2): eight others trickle as many at
 * 5,000 bytes a second, bodies sized to end before BODY_TIMEOUT_MS. Meanwhile a visitor from another address
 * signs the guestbook (form and API) and reports errors. Its writes may be refused (429) while the attack's
 * posts hold the slots, until they yield them; the first must be served within 2 s, and 90 % of each kind
 * (WRITES_TARGETS).
 */
function writesUnder(attack: SlotAttack): Attack {
  const what = attack === "stall" ? "stalled uploads" : `uploads trickled at ${TRICKLE_BYTES_PER_SECOND} B/s`;
  return {
    name: `${what} from ${STALL_ADDRESSES.length} addresses, ${STALLS_PER_ADDRESS} each to the guestbook's action and the tunnel`,
    async run(ctx) {
      const { probes, stalled } = await stalledWrites({
        origin: ctx.origin,
        port: ctx.port,
        dsn: ctx.dsn,
        seconds: ctx.seconds,
        attack,
      });
      const target = (path: string, served: number, tunnel = false): Target => ({
        name: `POST ${path} (visitor, ${attack} everywhere)`,
        path,
        expected: [served, 429],
        streamed: false,
        tunnel,
        weight: 1,
      });
      const targetOf = {
        form: target("/guestbook", 303),
        api: target("/api/guestbook", 201),
        tunnel: target("/monitoring", 200, true),
      };
      const targets = Object.values(targetOf);
      const counts = emptyCounts();
      for (const { kind, status } of probes) tally(counts, targetOf[kind], status);
      const served = writesServed(probes);
      return {
        targets,
        counts,
        note: `visitor's writes served: ${served.line}; attack's posts: ${stalled}`,
        problems: missedTargets(served),
      };
    },
  };
}

const heads: Attack = {
  name: "HEAD flood, streamed pages three times as often",
  async run(ctx) {
    const targets = pageTargets(3);
    const counts = emptyCounts();
    const until = performance.now() + ctx.seconds * 1000;
    await runLoad(
      { origin: ctx.origin, dsn: ctx.dsn, concurrency: 50, until, abortShare: 0, method: "HEAD" },
      targets,
      counts,
    );
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
    const load = runLoad(
      { origin: ctx.origin, dsn: ctx.dsn, concurrency: 10, until, abortShare: 0.1 },
      targets,
      counts,
    );
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
export const ATTACKS: readonly Attack[] = [
  uploads,
  stalledUploads,
  writesUnder("stall"),
  writesUnder("trickle"),
  heads,
  logPipe,
];

/**
 * Runs each attack, then a second for its last log lines (streamed pages log when they end); `onPhase` names
 * the attack whose lines are being read, `elapsed` is the seconds since the load began.
 */
export async function runAttacks(
  ctx: AttackContext,
  elapsed: () => number,
  onPhase: (name: string) => void,
): Promise<AttackResult[]> {
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
