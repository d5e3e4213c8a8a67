// ablation.ts: `bun bench/ablation.ts`: where Brisk's extra CPU per request goes, by taking it apart.
// The same request through six servers in turns, CPU per response each: the reference; Brisk whole with Sentry on
// (errors only) and off; Brisk's page handler on a bare Elysia app (no request pipeline, no render bound); that handler on raw
// Bun.serve (no Elysia, no request log); and that without the security headers and CSP nonce. The differences
// split Brisk's cost over the layers. Measured on the bench app's pages rendered for every request (the items page,
// the same behind a signed session cookie, and two levels down, held against the reference's items page), the
// 404 and the guestbook's form post (each server with its own store under its own DATA_DIR).
// `bun bench/layers.ts` times the small layers one by one, in process.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../src/server/build/client-build.ts";
import { BENCH_APP } from "./lib/bench-app.ts";
import { FORM_TYPE, GUESTBOOK_FORM, GUESTBOOK_PATH, checkSubmission } from "./lib/guestbook.ts";
import { benchServers, type BenchServers } from "./lib/bench-servers.ts";
import { LOAD_CORE, pinSelf } from "./lib/proc.ts";
import { PATHS, referencePathOf } from "./lib/results.ts";
import { sessionCookie } from "./lib/session.ts";
import { measureInTurns, type MeasureOptions } from "./lib/throughput.ts";

const SECONDS = Number(Bun.env.BENCH_SECONDS ?? 10);
/** Which cases to run (paths, or `POST` for the form post), comma-separated; all by default. */
const ONLY = Bun.env.ABLATION_CASES?.split(",");
const say = (message: string) => console.error(`ablation: ${message}`);

pinSelf(LOAD_CORE);
const work = await mkdtemp(join(tmpdir(), "brisk-ablation-"));
let fleet: BenchServers | undefined;
try {
  const clientDir = join(work, "client");
  await buildClient({ outdir: clientDir, appModule: BENCH_APP });
  const formFile = join(work, "guestbook-form.txt");
  await Bun.write(formFile, GUESTBOOK_FORM);
  fleet = benchServers(work, clientDir);
  const { start, dataDirOf } = fleet;
  const servers = [
    await start("reference", "reference-server.tsx"),
    // Errors only, and none happen: nothing is ever sent to this DSN, where nothing listens.
    await start("Brisk, Sentry on", "brisk-server.ts", { SENTRY_DSN: "http://publickey@127.0.0.1:9/42" }),
    await start("Brisk, Sentry off", "brisk-server.ts"),
    await start("handler on bare Elysia", "ablation-server.ts", { ABLATION: "elysia" }),
    await start("handler on Bun.serve", "ablation-server.ts"),
    await start("handler, no security headers", "ablation-server.ts", { ABLATION: "no-headers" }),
  ];
  const [reference] = servers;
  for (const s of servers) await checkSubmission(s.origin, dataDirOf(s.name));
  const cookie = await sessionCookie();
  // The form post as run.ts sends it: a valid entry with an Origin naming the server.
  const post: Partial<MeasureOptions> = {
    bodyFile: formFile,
    contentType: FORM_TYPE,
    headers: (s) => ({ origin: s.origin }),
  };
  const page = (path: string): Partial<MeasureOptions> => ({
    pathFor: (s) => (s === reference ? referencePathOf(path) : path),
    headers: (): Record<string, string> => (path === PATHS.session ? { cookie } : {}),
  });
  const rows: string[] = [];
  const pipeline = "routing, loader, outcomes, Brisk's React tree and boot data";
  const cases = [
    [PATHS.items, page(PATHS.items), pipeline],
    [PATHS.session, page(PATHS.session), `${pipeline}, the session cookie read and checked`],
    [PATHS.nested, page(PATHS.nested), `${pipeline}, two levels (against the reference's ${PATHS.items})`],
    [PATHS.notFound, {}, pipeline],
    [
      GUESTBOOK_PATH,
      post,
      "cross-site check, body read and parse within limits, the action's context, the redirect as an outcome",
    ],
  ] as const;
  for (const [path, extra, handlerWork] of cases) {
    const label = extra === post ? `POST ${path}` : path;
    if (ONLY && !ONLY.includes(extra === post ? "POST" : path)) continue;
    say(`measuring ${label}`);
    const m = await measureInTurns(servers, path, {
      warmupSeconds: 3,
      seconds: SECONDS,
      slices: Math.min(5, SECONDS),
      workDir: work,
      ...extra,
    });
    const us = m.map((x) => (x.serverCpu / x.rps) * 1e6);
    const [ref, on, off, elysia, handler, bare] = us as [number, number, number, number, number, number];
    const f = (n: number) => `${n.toFixed(0)} µs`;
    for (const [i, x] of m.entries()) {
      const warm = `${x.warmup.seconds} s${x.warmup.settled ? "" : " (unsettled)"}`;
      rows.push(
        `| ${label} | ${x.server} | ${Math.round(x.rps).toLocaleString("en")} | ${f(us[i]!)} | ${pctOf(us[i]!, ref)} | ${Math.round(x.jitCpu * 100)} % | ${warm} | ${Math.round(x.foreignCpu * 100)} % |`,
      );
    }
    rows.push(
      `| ${label} | **split of Brisk's extra ${f(on - ref)}** | | Sentry's request scope and session ${f(on - off)}; the request pipeline and the render bound (host check, context, prerendered lookup, render place, security headers, request id, log line) ${f(off - elysia)}; Elysia ${f(elysia - handler)}; security headers and nonce ${f(handler - bare)}; ${handlerWork} ${f(bare - ref)} | | | | |`,
    );
  }
  console.log(
    [
      "| request | server | req/s | CPU/req | vs reference | JIT | warm-up | others |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
    ].join("\n"),
  );
} finally {
  await fleet?.stopAll();
  await rm(work, { recursive: true, force: true });
}

function pctOf(x: number, ref: number): string {
  return `${x >= ref ? "+" : ""}${Math.round((x / ref - 1) * 100)} %`;
}
