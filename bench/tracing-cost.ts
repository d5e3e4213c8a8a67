// tracing-cost.ts: `bun bench/tracing-cost.ts`: the bench app's items page (rendered for every request; prerendered
// answers are never traced) on the four Sentry settings (off; on without tracing; tracing at 1.0 and at 0.1), as
// `bun run bench` measures it but in twenty 1-second turns each, so that outside load falls on all four alike.
// Prints req/s, server CPU per request, the server's CPU share and other processes' CPU.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { startFakeIngest } from "brisk/test";
import { BENCH_APP } from "./lib/bench-app.ts";
import { benchServers } from "./lib/bench-servers.ts";
import { LOAD_CORE, pinSelf } from "./lib/proc.ts";
import { PATHS } from "./lib/results.ts";
import { measureInTurns } from "./lib/throughput.ts";
pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-tracing-cost-"));
const clientDir = join(work, "client");
await buildClient({ outdir: clientDir, appModule: BENCH_APP });
const ingest = await startFakeIngest();
const fleet = benchServers(work, clientDir);
const start = (name: string, env: Record<string, string | undefined>) => fleet.start(name, "brisk-server.ts", env);
// The ingest keeps what it receives; this run only needs it to answer.
const forget = setInterval(() => ingest.received.splice(0), 500);
try {
  const servers = [
    await start("Sentry off", {}),
    await start("Sentry on, tracing off", { SENTRY_DSN: ingest.dsn() }),
    await start("tracing 1.0", { SENTRY_DSN: ingest.dsn(), SENTRY_TRACES_SAMPLE_RATE: "1" }),
    await start("tracing 0.1", { SENTRY_DSN: ingest.dsn(), SENTRY_TRACES_SAMPLE_RATE: "0.1" }),
  ];
  const r = await measureInTurns(servers, PATHS.items, { warmupSeconds: 3, seconds: 20, slices: 20, workDir: work });
  console.log("| Sentry | req/s | CPU/req | server CPU | others |\n| --- | ---: | ---: | ---: | ---: |");
  for (const m of r)
    console.log(
      `| ${m.server} | ${Math.round(m.rps)} | ${Math.round((m.serverCpu / m.rps) * 1e6)} µs | ${Math.round(m.serverCpu * 100)} % | ${Math.round(m.foreignCpu * 100)} % |`,
    );
} finally {
  clearInterval(forget);
  await fleet.stopAll();
  await ingest.stop();
  await rm(work, { recursive: true, force: true });
}
