// visitor.ts: `bun bench/visitor.ts`: the visitor measure of `bun run bench` for a page rendered per request, alone:
// cold Chromium loads of the items page arriving from another site, unthrottled and on issue 22's throttled profile,
// Brisk (Sentry on, errors only) against the reference, with the targets. A minute or two, not the bench's ten.
//
// VISITOR_RUNS: loads per server and condition (10). VISITOR_PATH: the page (/items). VISITOR_SENTRY_OFF=1: Brisk
// with Sentry off too, to tell Sentry's share of the main thread's time.
// VISITOR_BASELINE=<checkout>[,<checkout>…]: a further server for each, Brisk as that checkout (another git worktree)
// builds and runs it, taking turns with this one's: a before and after (or several candidates) in one run.
// VISITOR_FRESH=1: every server started anew before each condition and warmed by a few requests of the page only,
// not by a load: what a visitor meets soon after a deploy.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { meterForeignLoad } from "./lib/load.ts";
import { benchServers } from "./lib/bench-servers.ts";
import { LOAD_CORE, pinSelf } from "./lib/proc.ts";
import { markdown, targetsTable } from "./lib/report.ts";
import { PATHS } from "./lib/results.ts";
import {
  FRESH_WARM_REQUESTS,
  measureVisitors,
  perRequestConditions,
  type VisitorServers,
  type VisitorTarget,
} from "./lib/visitor.ts";
import { perRequestVisitorTargets, visitorTable } from "./lib/visitor-report.ts";

const RUNS = Number(Bun.env.VISITOR_RUNS ?? 10);
const PATH = Bun.env.VISITOR_PATH ?? PATHS.items;
const BASELINES = (Bun.env.VISITOR_BASELINE ?? "").split(",").filter(Boolean);
/** One baseline keeps the name the bench has always given it; several are told apart by their folders. */
const baselineName = (checkout: string) =>
  BASELINES.length > 1 ? `baseline ${basename(checkout)}` : "baseline brisk, Sentry on";
const SENTRY_OFF = Bun.env.VISITOR_SENTRY_OFF === "1";
const FRESH = Bun.env.VISITOR_FRESH === "1";
const say = (message: string) => console.error(`visitor: ${message}`);
const pct = (share: number) => `${Math.round(share * 100)} %`;

/** What other processes used of the machine over a quiet `seconds`: nothing of ours runs meanwhile. */
async function quietLoad(seconds = 3): Promise<number> {
  const meter = meterForeignLoad();
  await Bun.sleep(seconds * 1000);
  return meter.read();
}

pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-visitor-"));
const clientDir = join(work, "client");
const fleet = benchServers(work, clientDir);
try {
  // Errors only, and none happen: nothing is ever sent to this DSN, where nothing listens.
  const sentry = { SENTRY_DSN: "http://publickey@127.0.0.1:9/42" };
  say("building the client");
  await buildClient({ outdir: clientDir, appModule: BENCH_APP });
  const startAll = async (): Promise<VisitorTarget[]> => {
    const targets: VisitorTarget[] = [
      { ...(await fleet.start("brisk, Sentry on", "brisk-server.ts", sentry)), hydrates: true },
      { ...(await fleet.start("reference", "reference-server.tsx")), hydrates: false },
    ];
    if (SENTRY_OFF) targets.push({ ...(await fleet.start("brisk, Sentry off", "brisk-server.ts")), hydrates: true });
    for (const checkout of BASELINES)
      targets.push({ ...(await fleet.startBaseline(baselineName(checkout), checkout, sentry)), hydrates: true });
    return targets;
  };
  for (const checkout of BASELINES) say(`building the baseline's client in ${checkout}`);
  const targets = await startAll();
  const servers: VisitorServers = FRESH
    ? async () => {
        say(`servers started anew, each warmed by ${FRESH_WARM_REQUESTS} requests of ${PATH}`);
        await fleet.stopAll();
        return startAll();
      }
    : targets;
  const before = await quietLoad();
  say(`${RUNS} cold loads of ${PATH} per server and condition`);
  const results = await measureVisitors(servers, perRequestConditions(PATH), RUNS);
  const after = await quietLoad();
  const current = { brisk: "brisk, Sentry on", reference: "reference" };
  const targetRows = [
    ...perRequestVisitorTargets(results, current, PATH),
    ...BASELINES.flatMap((checkout) => {
      const name = baselineName(checkout);
      return perRequestVisitorTargets(results, { brisk: name, reference: "reference" }, PATH).map((t) => ({
        ...t,
        figure: `${name.replace(/ brisk, Sentry on$/, "")}: ${t.figure}`,
      }));
    }),
  ];
  console.log(markdown(targetsTable(targetRows)));
  const about = FRESH
    ? `Servers started anew for each condition, warmed by ${FRESH_WARM_REQUESTS} requests of the page, no load.`
    : "";
  console.log(markdown(visitorTable(results, PATH, about)));
  console.log(
    `Other processes used ${pct(before)} of a core in the quiet 3 s before the loads, ${pct(after)} in the 3 s after.`,
  );
} finally {
  await fleet.stopAll();
  await rm(work, { recursive: true, force: true });
}
