// allocations.ts: `bun bench/allocations.ts [path…]`: what one request of a page costs in process, Brisk's whole app
// (`app.handle`) beside the reference's page function: CPU per request after a settled warm-up, and the objects it
// allocates by type (JSC's heap counted right after a full collection and again after a batch of requests, with no
// collection between: the script runs itself again with `BUN_JSC_largeHeapSize` set, which keeps the first
// collection that far off, production mode and the bench servers' preload). SENTRY=1 puts Sentry's request scope
// on (errors only). ALLOC_WARMUP (20,000), ALLOC_ROUNDS (15) of ALLOC_ITERATIONS (1,000); ALLOC_BATCH (200) counted.
import { heapStats } from "bun:jsc";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { startApp } from "../src/server/app-start.ts";
import { parseConfig } from "../src/server/config/config.ts";
import { createApp, renderPrerenderedPages } from "../src/server/create-app.ts";
import { loadClientAssets } from "../src/server/assets/assets.ts";
import app from "./app/app.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { referencePathOf } from "./lib/results.ts";
import { BENCH_COOKIE_SECRET, sessionCookie } from "./lib/session.ts";
import { median } from "./lib/stats.ts";

if (!Bun.env.BUN_JSC_largeHeapSize) {
  const env = { ...Bun.env, NODE_ENV: "production", BUN_JSC_largeHeapSize: String(2 ** 31) };
  const preload = join(import.meta.dir, "lib/server-plugins.ts");
  const child = Bun.spawnSync(["bun", "--preload", preload, import.meta.path, ...process.argv.slice(2)], {
    env,
    stdio: ["inherit", "inherit", "inherit"],
  });
  process.exit(child.exitCode ?? 1);
}

const WARMUP = Number(Bun.env.ALLOC_WARMUP ?? 20_000);
const ROUNDS = Number(Bun.env.ALLOC_ROUNDS ?? 15);
const PER_ROUND = Number(Bun.env.ALLOC_ITERATIONS ?? 1_000);
const BATCH = Number(Bun.env.ALLOC_BATCH ?? 200);
const ORIGIN = "http://127.0.0.1:3000";
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/items"];

const work = await mkdtemp(join(tmpdir(), "brisk-allocations-"));
try {
  let clientDir = Bun.env.BENCH_CLIENT_DIR;
  if (!clientDir) await buildClient({ outdir: (clientDir = join(work, "client")), appModule: BENCH_APP });
  Object.assign(Bun.env, {
    NODE_ENV: "production",
    BENCH_CLIENT_DIR: clientDir,
    DATA_DIR: join(work, "data"),
    COOKIE_SECRET: BENCH_COOKIE_SECRET,
  });
  const config = parseConfig({
    ...Bun.env,
    SENTRY_DSN: Bun.env.SENTRY ? "http://publickey@127.0.0.1:9/42" : undefined,
  });
  const assets = loadClientAssets(app.routes, clientDir);
  const monitoring = config.sentryDsn
    ? (await import("../src/server/monitoring/sentry.ts")).initServerSentry(config, "allocations", { log: () => {} })
    : undefined;
  const { cookieSigner } = await startApp(config, app, () => {});
  const brisk = createApp(config, app, {
    assets,
    cookieSigner,
    capture: monitoring?.capture,
    monitor: monitoring?.monitor,
    log: () => {},
  });
  await renderPrerenderedPages(brisk);
  // The reference's module listens on a port of its own (PORT unset: any); only its page function is called here.
  const reference = await import("./reference-server.tsx");
  const cookie = await sessionCookie();

  const requestOf = (path: string) => () => new Request(ORIGIN + path, { headers: { host: "127.0.0.1:3000", cookie } });
  const drain = async (response: Response | Promise<Response>) => void (await (await response).arrayBuffer());
  for (const path of paths) {
    const get = requestOf(path);
    const servers: Record<string, () => Promise<void>> = {
      reference: () => drain(reference.page(get(), referencePathOf(path))),
      brisk: () => drain(brisk.handle(get())),
    };
    for (const run of Object.values(servers)) for (let i = 0; i < WARMUP; i++) await run();
    const times: Record<string, number[]> = { reference: [], brisk: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of Object.entries(servers)) {
        const start = process.cpuUsage();
        for (let i = 0; i < PER_ROUND; i++) await run();
        const used = process.cpuUsage(start);
        times[name]!.push((used.user + used.system) / PER_ROUND);
      }
    }
    const counts: Record<string, Record<string, number>> = {};
    for (const [name, run] of Object.entries(servers)) {
      Bun.gc(true);
      const before = heapStats();
      for (let i = 0; i < BATCH; i++) await run();
      const after = heapStats();
      counts[name] = {};
      for (const [type, n] of Object.entries(after.objectTypeCounts)) {
        const grown = (n - (before.objectTypeCounts[type] ?? 0)) / BATCH;
        if (grown >= 0.5) counts[name]![type] = grown;
      }
    }
    console.log(`\n## ${path}${Bun.env.SENTRY ? ", Sentry on" : ""}\n`);
    const [ref, own] = [median(times.reference!), median(times.brisk!)];
    console.log(
      `CPU per request (median of ${ROUNDS} rounds of ${PER_ROUND}): reference ${ref.toFixed(1)} µs (${Math.min(...times.reference!).toFixed(1)}–${Math.max(...times.reference!).toFixed(1)}), Brisk ${own.toFixed(1)} µs (${Math.min(...times.brisk!).toFixed(1)}–${Math.max(...times.brisk!).toFixed(1)}): ${(ref / own).toFixed(2)} ×`,
    );
    console.log(`\nobjects allocated per request, by type (${BATCH} requests counted):\n`);
    const types = [...new Set([...Object.keys(counts.reference!), ...Object.keys(counts.brisk!)])];
    const extra = (t: string) => (counts.brisk![t] ?? 0) - (counts.reference![t] ?? 0);
    console.log("| object type | reference | Brisk | extra |\n| --- | ---: | ---: | ---: |");
    for (const t of types.toSorted((a, b) => extra(b) - extra(a))) {
      console.log(
        `| ${t} | ${(counts.reference![t] ?? 0).toFixed(1)} | ${(counts.brisk![t] ?? 0).toFixed(1)} | ${extra(t).toFixed(1)} |`,
      );
    }
    const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
    console.log(
      `| all | ${total(counts.reference!).toFixed(1)} | ${total(counts.brisk!).toFixed(1)} | ${(total(counts.brisk!) - total(counts.reference!)).toFixed(1)} |`,
    );
  }
  await monitoring?.close(0);
} finally {
  await rm(work, { recursive: true, force: true });
}
process.exit(0);
