// bench-servers.ts: the bench's servers (bench/*-server.ts) as every measuring script starts them: pinned to the
// server core, in production with the deployment's heap sizing, on a client build of the bench app, each with a
// DATA_DIR of its own (its SQLite store, so every guestbook starts empty), the bench's COOKIE_SECRET, and Sentry off
// unless `env` names a DSN.
import { join } from "node:path";
import { startServer, type Child } from "./proc.ts";
import { BENCH_COOKIE_SECRET } from "./session.ts";

/** The checkout this bench belongs to. */
const HERE = join(import.meta.dir, "../..");
/**
 * The heap size JavaScriptCore is told the host has, as the image (Dockerfile) and `bun run start` tell it: the
 * bench's servers run as Brisk is deployed. The reference gets it too, so both sides collect alike.
 */
export const JSC_RAM_SIZE = "1073741824";
/** Where the reference forwards tunnel posts unless a run gives it an ingest: nothing listens there. */
const NO_INGEST = "http://127.0.0.1:9/";

const fileName = (name: string) => name.replace(/\W+/g, "-");

export interface BenchServers {
  /**
   * Starts `script` of the bench folder, with `env` over the defaults. `from`: another checkout (a git worktree)
   * and its own client build, for a before-and-after in one run.
   */
  start(
    name: string,
    script: string,
    env?: Record<string, string | undefined>,
    from?: { checkout: string; clientDir: string },
  ): Promise<Child>;
  /** The DATA_DIR of the server of that name. */
  dataDirOf(name: string): string;
  /**
   * Starts `checkout`'s own bench server (another git worktree, a commit to compare with), on a client build that
   * checkout makes of its bench app (once: a second start of that name reuses it).
   */
  startBaseline(name: string, checkout: string, env?: Record<string, string | undefined>): Promise<Child>;
  /** Stops every server started so far. */
  stopAll(): Promise<void>;
}

export function benchServers(work: string, clientDir: string): BenchServers {
  const children: Child[] = [];
  const dataDirOf = (name: string) => join(work, `data-${fileName(name)}`);
  const servers: BenchServers = {
    dataDirOf,
    async startBaseline(name, checkout, env) {
      const baselineClient = join(work, `client-${fileName(name)}`);
      // Built once: a restart of the same server (the visitor bench's fresh servers) runs the same build.
      if (await Bun.file(join(baselineClient, "manifest.json")).exists())
        return servers.start(name, "brisk-server.ts", env, { checkout, clientDir: baselineClient });
      const build = `import { buildClient } from "./src/server/build/client-build.ts"; await buildClient({ outdir: ${JSON.stringify(baselineClient)}, appModule: ${JSON.stringify(join(checkout, "bench/app/app.ts"))} });`;
      const built = Bun.spawnSync(["bun", "-e", build], { cwd: checkout, stderr: "inherit" });
      if (built.exitCode !== 0) throw new Error(`the client build of ${checkout} failed (${built.exitCode})`);
      return servers.start(name, "brisk-server.ts", env, { checkout, clientDir: baselineClient });
    },
    async start(name, script, env = {}, from = { checkout: HERE, clientDir }) {
      const bench = join(from.checkout, "bench");
      const child = await startServer(
        name,
        ["bun", "--preload", join(bench, "lib/server-plugins.ts"), join(bench, script)],
        {
          env: {
            NODE_ENV: "production",
            BUN_JSC_forceRAMSize: JSC_RAM_SIZE,
            BENCH_CLIENT_DIR: from.clientDir,
            BENCH_INGEST_URL: NO_INGEST,
            SENTRY_DSN: undefined,
            COOKIE_SECRET: BENCH_COOKIE_SECRET,
            DATA_DIR: dataDirOf(name),
            ...env,
          },
          stderrPath: join(work, `${fileName(name)}.stderr`),
        },
      );
      children.push(child);
      return child;
    },
    async stopAll() {
      for (const child of children.splice(0)) await child.stop();
    },
  };
  return servers;
}
