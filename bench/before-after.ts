// before-after.ts: `BENCH_BASELINE=<another checkout> bun bench/before-after.ts [case…]`: one change's effect, as CPU
// per response under wrk: the reference, that checkout's Brisk and this one's, Sentry on (errors only) and off, in
// interleaved turns after a settled warm-up each. Cases: the pages rendered per request, the 404, `/` and `POST`
// (the guestbook's form post); `/items` alone by default. BENCH_SECONDS (default 10) per server and case, in 1 s turns.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { benchServers } from "./lib/bench-servers.ts";
import { FORM_TYPE, GUESTBOOK_FORM, GUESTBOOK_PATH, checkSubmission } from "./lib/guestbook.ts";
import { LOAD_CORE, pinSelf } from "./lib/proc.ts";
import { PATHS, referencePathOf } from "./lib/results.ts";
import { sessionCookie } from "./lib/session.ts";
import { measureInTurns, type MeasureOptions } from "./lib/throughput.ts";

const baseline = Bun.env.BENCH_BASELINE;
if (!baseline)
  throw new Error(
    "BENCH_BASELINE: the checkout to compare with (a git worktree, or an archive of a commit with node_modules)",
  );
const SECONDS = Number(Bun.env.BENCH_SECONDS ?? 10);
const cases = process.argv.slice(2).length ? process.argv.slice(2) : [PATHS.items];
const DSN = { SENTRY_DSN: "http://publickey@127.0.0.1:9/42" };

pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-before-after-"));
const fleet = benchServers(work, join(work, "client"));
try {
  await buildClient({ outdir: join(work, "client"), appModule: BENCH_APP });
  const reference = await fleet.start("reference", "reference-server.tsx");
  const servers = [
    reference,
    await fleet.startBaseline("before, Sentry on", baseline, DSN),
    await fleet.start("after, Sentry on", "brisk-server.ts", DSN),
    await fleet.startBaseline("before, Sentry off", baseline),
    await fleet.start("after, Sentry off", "brisk-server.ts"),
  ];
  const formFile = join(work, "form.txt");
  await Bun.write(formFile, GUESTBOOK_FORM);
  const cookie = await sessionCookie();
  console.log(
    "| case | server | req/s | CPU/req | × reference req/s | JIT | warm-up | others |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const name of cases) {
    const post = name === "POST";
    if (post) for (const s of servers) await checkSubmission(s.origin, fleet.dataDirOf(s.name));
    const extra: Partial<MeasureOptions> = post
      ? { bodyFile: formFile, contentType: FORM_TYPE, headers: (s) => ({ origin: s.origin }) }
      : {
          pathFor: (s) => (s === reference ? referencePathOf(name) : name),
          headers: (): Record<string, string> => (name === PATHS.session ? { cookie } : {}),
        };
    const m = await measureInTurns(servers, post ? GUESTBOOK_PATH : name, {
      warmupSeconds: 3,
      seconds: SECONDS,
      slices: SECONDS,
      workDir: work,
      ...extra,
    });
    for (const x of m) {
      const us = (x.serverCpu / x.rps) * 1e6;
      console.log(
        `| ${post ? `POST ${GUESTBOOK_PATH}` : name} | ${x.server} | ${Math.round(x.rps).toLocaleString("en")} | ${us.toFixed(0)} µs | ${(x.rps / m[0]!.rps).toFixed(2)} | ${Math.round(x.jitCpu * 100)} % | ${x.warmup.seconds} s${x.warmup.settled ? "" : " (unsettled)"} | ${Math.round(x.foreignCpu * 100)} % |`,
      );
    }
  }
} finally {
  await fleet.stopAll();
  await rm(work, { recursive: true, force: true });
}
