// ablation.ts: `bun bench/ablation.ts`: where Brisk's extra CPU per request goes, by taking it apart.
// The same request through four servers in turns, CPU per response each: the reference, Brisk whole,
// Brisk's page handler on raw Bun.serve (no Elysia, no request log), and that handler without the
// security headers and CSP nonce. The differences split Brisk's cost over the layers. Measured on the bench
// app's items page (rendered for every request), the 404 and the guestbook's form post (each server with its own
// store under its own DATA_DIR).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { FORM_TYPE, GUESTBOOK_FORM, GUESTBOOK_PATH, checkSubmission } from "./lib/guestbook.ts";
import { LOAD_CORE, pinSelf, startServer, type Child } from "./lib/proc.ts";
import { PATHS } from "./lib/results.ts";
import { measureInTurns, type MeasureOptions } from "./lib/throughput.ts";

const SECONDS = Number(Bun.env.BENCH_SECONDS ?? 10);
const say = (message: string) => console.error(`ablation: ${message}`);

pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-ablation-"));
const children: Child[] = [];
try {
  const clientDir = join(work, "client");
  await buildClient({ outdir: clientDir, appModule: BENCH_APP });
  const formFile = join(work, "guestbook-form.txt");
  await Bun.write(formFile, GUESTBOOK_FORM);
  const dataDirOf = (name: string) => join(work, `data-${name.replace(/\W+/g, "-")}`);
  const start = async (name: string, script: string, env: Record<string, string> = {}) => {
    const child = await startServer(name, ["bun", "--preload", join(import.meta.dir, "lib/server-plugins.ts"), join(import.meta.dir, script)], {
      env: {
        NODE_ENV: "production",
        BENCH_CLIENT_DIR: clientDir,
        BENCH_INGEST_URL: "http://127.0.0.1:9/",
        SENTRY_DSN: undefined,
        DATA_DIR: dataDirOf(name),
        ...env,
      },
      stderrPath: join(work, `${name.replace(/\W+/g, "-")}.stderr`),
    });
    children.push(child);
    return child;
  };
  const servers = [
    await start("reference", "reference-server.tsx"),
    await start("Brisk", "brisk-server.ts"),
    await start("handler on Bun.serve", "ablation-server.ts"),
    await start("handler, no security headers", "ablation-server.ts", { ABLATION: "no-headers" }),
  ];
  for (const s of servers) await checkSubmission(s.origin, dataDirOf(s.name));
  // The form post as run.ts sends it: a valid entry with an Origin naming the server.
  const post: Partial<MeasureOptions> = { bodyFile: formFile, contentType: FORM_TYPE, headers: (s) => ({ origin: s.origin }) };
  const rows: string[] = [];
  const rest = "routing, loader, outcomes, Brisk's React tree and boot data";
  const cases = [
    [PATHS.items, {}, rest],
    [PATHS.notFound, {}, rest],
    [GUESTBOOK_PATH, post, "cross-site check, body read and parse within limits, the action's context, the redirect as an outcome"],
  ] as const;
  for (const [path, extra, handlerWork] of cases) {
    const label = extra === post ? `POST ${path}` : path;
    say(`measuring ${label}`);
    const m = await measureInTurns(servers, path, { warmupSeconds: 3, seconds: SECONDS, slices: Math.min(5, SECONDS), workDir: work, ...extra });
    const us = m.map((x) => (x.serverCpu / x.rps) * 1e6);
    const [ref, brisk, handler, bare] = us as [number, number, number, number];
    const f = (n: number) => `${n.toFixed(0)} µs`;
    for (const [i, x] of m.entries()) rows.push(`| ${label} | ${x.server} | ${Math.round(x.rps).toLocaleString("en")} | ${f(us[i]!)} | ${pctOf(us[i]!, ref)} |`);
    rows.push(
      `| ${label} | **split of Brisk's extra ${f(brisk - ref)}** | | Elysia and the request log ${f(brisk - handler)}; security headers and nonce ${f(handler - bare)}; ${handlerWork} ${f(bare - ref)} | |`,
    );
  }
  console.log(["| request | server | req/s | CPU/req | vs reference |", "| --- | --- | ---: | ---: | ---: |", ...rows].join("\n"));
} finally {
  for (const child of children) await child.stop();
  await rm(work, { recursive: true, force: true });
}

function pctOf(x: number, ref: number): string {
  return `${x >= ref ? "+" : ""}${Math.round((x / ref - 1) * 100)} %`;
}
