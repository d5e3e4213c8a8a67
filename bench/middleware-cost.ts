// middleware-cost.ts: `bun bench/middleware-cost.ts`: what route middleware costs a page rendered per request.
// One Brisk server (Sentry on, errors only), in turns on three paths of the bench app: /items (no middleware),
// /session/items (a loader that checks the signed session cookie) and /guarded/items (the same check made by a
// guard middleware that hands the visitor to the loader through the request context). With
// MIDDLEWARE_BASELINE=<checkout> (a git worktree of the commit before middleware), that checkout's server joins
// on /items: a route without middleware must cost what it cost before. CPU per request from the servers' own
// CPU time, each side warmed up until its compiler has gone quiet (lib/throughput.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { benchServers, type BenchServers } from "./lib/bench-servers.ts";
import { LOAD_CORE, pinSelf } from "./lib/proc.ts";
import { sessionCookie } from "./lib/session.ts";
import { measureInTurns, type Endpoint } from "./lib/throughput.ts";

const SECONDS = Number(Bun.env.BENCH_SECONDS ?? 20);
const BASELINE = Bun.env.MIDDLEWARE_BASELINE;
/** Errors only, and none happen: nothing is ever sent to this DSN, where nothing listens. */
const SENTRY = { SENTRY_DSN: "http://publickey@127.0.0.1:9/42" };
const say = (message: string) => console.error(`middleware-cost: ${message}`);

pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-middleware-"));
let fleet: BenchServers | undefined;
try {
  const clientDir = join(work, "client");
  await buildClient({ outdir: clientDir, appModule: BENCH_APP });
  fleet = benchServers(work, clientDir);
  const brisk = await fleet.start("brisk", "brisk-server.ts", SENTRY);
  // One server, three paths: each its own endpoint in the turns, so every path is measured in the same conditions.
  const sides: Array<Endpoint & { path: string }> = [
    { ...brisk, name: "/items, no middleware", path: "/items" },
    { ...brisk, name: "/session/items, the check in the loader", path: "/session/items" },
    { ...brisk, name: "/guarded/items, the check in a guard middleware", path: "/guarded/items" },
  ];
  if (BASELINE) {
    say(`building the baseline's client in ${BASELINE}`);
    const baseline = await fleet.startBaseline("baseline", BASELINE, SENTRY);
    sides.unshift({ ...baseline, name: "/items on the baseline", path: "/items" });
  }
  const cookie = await sessionCookie();
  const pathOf = new Map(sides.map((side) => [side.name, side.path]));
  say(`measuring ${sides.length} sides, ${SECONDS} s each in turns`);
  const measured = await measureInTurns(sides, "/items", {
    warmupSeconds: 5,
    seconds: SECONDS,
    slices: Math.min(10, SECONDS),
    workDir: work,
    pathFor: (side) => pathOf.get(side.name)!,
    headers: () => ({ cookie }),
  });
  const us = new Map(measured.map((m) => [m.server, (m.serverCpu / m.rps) * 1e6]));
  const rows = measured.map((m) => {
    const warm = `${m.warmup.seconds} s${m.warmup.settled ? "" : " (unsettled)"}`;
    return `| ${m.server} | ${Math.round(m.rps).toLocaleString("en")} | ${us.get(m.server)!.toFixed(0)} µs | ${Math.round(m.jitCpu * 100)} % | ${warm} | ${Math.round(m.foreignCpu * 100)} % |`;
  });
  const of = (name: string) => us.get(sides.find((side) => side.name.startsWith(name))!.name)!;
  const delta = (a: number, b: number) => `${a - b >= 0 ? "+" : ""}${(a - b).toFixed(1)} µs`;
  console.log(
    ["| side | req/s | CPU/req | JIT | warm-up | others |", "| --- | ---: | ---: | ---: | ---: | ---: |", ...rows].join(
      "\n",
    ),
  );
  console.log("");
  if (BASELINE)
    console.log(
      `- no middleware, against the baseline: ${delta(of("/items, no"), of("/items on the baseline"))} per request`,
    );
  console.log(
    `- one guard middleware (the cookie check included), against no middleware: ${delta(of("/guarded"), of("/items, no"))} per request`,
  );
  console.log(
    `- the same check in a middleware rather than the loader: ${delta(of("/guarded"), of("/session"))} per request`,
  );
} finally {
  await fleet?.stopAll();
  await rm(work, { recursive: true, force: true });
}
