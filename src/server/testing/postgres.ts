// postgres.ts (brisk/test): a throwaway PostgreSQL cluster from Debian's package, started by the test and stopped by pid.
//
//   const pg = await startPostgres();         // initdb in a temp folder, postgres on a free port
//   const url = await pg.createDatabase("x"); // postgres://postgres@127.0.0.1:<port>/x
//   await pg.stop(); await pg.start();        // a restart: same folder, same port, same data
//   await pg.remove();                        // in afterAll: stop, then delete the folder
//
// The binaries come from /usr/lib/postgresql/<version>/bin (the `postgresql` package; .ci/run installs it).
// PostgreSQL refuses to run as root, so under root every command runs as the `postgres` user through
// setpriv, which execs in place: the pid Bun spawns is the postmaster's own, the one `stop` signals.
// Trust authentication on 127.0.0.1 only, fsync off: a cluster for tests, gone when they end.
import type { Subprocess } from "bun";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";

export interface Postgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** A new empty database; resolves with its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the postmaster (fast shutdown: SIGINT to its pid) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same folder and port. */
  start(): Promise<void>;
  /** Stops it and deletes its folder. */
  remove(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder, or undefined when the package is not installed. */
async function postgresBinDir(): Promise<string | undefined> {
  const versions = await readdir("/usr/lib/postgresql").catch(() => [] as string[]);
  const newest = versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))[0];
  return newest && (await Bun.file(`/usr/lib/postgresql/${newest}/bin/postgres`).exists())
    ? `/usr/lib/postgresql/${newest}/bin`
    : undefined;
}

const asRoot = process.getuid?.() === 0;

/** The command line, run as the postgres user when we are root. */
function asPostgresUser(cmd: string[]): string[] {
  return asRoot ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", ...cmd] : cmd;
}

async function run(cmd: string[]): Promise<void> {
  const proc = Bun.spawn(asPostgresUser(cmd), { stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}:\n${out}${err}`);
}

export async function startPostgres(): Promise<Postgres> {
  const bin = await postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed: apt-get install postgresql (see .ci/run)");
  const root = await mkdtemp(join(tmpdir(), "brisk-pg-"));
  if (asRoot) await chown(root, postgresId("-u"), postgresId("-g"));
  const port = await freePort();
  const cluster: Cluster = {
    bin,
    root,
    dataDir: join(root, "data"),
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    proc: undefined,
    admin: undefined,
    // If the test process ends without afterAll (a crash, a Ctrl-C), the cluster goes with it.
    immediateStop: () => cluster.proc?.kill("SIGQUIT"),
  };
  try {
    await initdb(cluster);
    await start(cluster);
  } catch (error) {
    await remove(cluster);
    throw error;
  }
  return {
    url: cluster.url,
    port,
    dataDir: cluster.dataDir,
    createDatabase: (name) => createDatabase(cluster, name),
    stop: () => stop(cluster),
    start: () => start(cluster),
    remove: () => remove(cluster),
  };
}

/** One cluster: its folder and port, for as long as it lives; its postmaster, while it runs. */
interface Cluster {
  readonly bin: string;
  readonly root: string;
  readonly dataDir: string;
  readonly port: number;
  readonly url: string;
  proc: Subprocess<"ignore", "pipe", "pipe"> | undefined;
  /** Kept open between createDatabase calls: a new connection costs a backend process. */
  admin: InstanceType<typeof Bun.SQL> | undefined;
  readonly immediateStop: () => void;
}

/** The postgres user's uid (`-u`) or gid (`-g`). */
function postgresId(which: "-u" | "-g"): number {
  return Number(Bun.spawnSync(["id", which, "postgres"]).stdout.toString());
}

function initdb(cluster: Cluster): Promise<void> {
  return run([
    `${cluster.bin}/initdb`,
    "-D",
    cluster.dataDir,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
    "--no-instructions",
  ]);
}

async function start(cluster: Cluster): Promise<void> {
  const { bin, root, dataDir, port } = cluster;
  const settings = [
    "listen_addresses=127.0.0.1",
    `unix_socket_directories=${root}`,
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
    "max_connections=300",
  ];
  const proc = Bun.spawn(
    asPostgresUser([`${bin}/postgres`, "-D", dataDir, "-p", String(port), ...settings.flatMap((s) => ["-c", s])]),
    { stdin: "ignore", stdout: "pipe", stderr: "pipe" },
  );
  cluster.proc = proc;
  process.once("exit", cluster.immediateStop);
  await untilReady(proc, port);
}

/** Resolves once the postmaster logs that it accepts connections; throws if it exits first or takes 30 s. */
async function untilReady(proc: Subprocess<"ignore", "pipe", "pipe">, port: number): Promise<void> {
  let log = "";
  const decoder = new TextDecoder();
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) log += decoder.decode(chunk, { stream: true });
  };
  void collect(proc.stdout);
  void collect(proc.stderr);
  const deadline = Date.now() + 30_000;
  while (!log.includes("database system is ready to accept connections")) {
    if (proc.exitCode !== null || Date.now() > deadline)
      throw new Error(`postgres did not start on port ${port}:\n${log}`);
    await Bun.sleep(20);
  }
}

async function stop(cluster: Cluster): Promise<void> {
  await cluster.admin?.close();
  cluster.admin = undefined;
  const { proc } = cluster;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGINT");
  await proc.exited;
  process.off("exit", cluster.immediateStop);
}

async function remove(cluster: Cluster): Promise<void> {
  await stop(cluster);
  await rm(cluster.root, { recursive: true, force: true });
}

async function createDatabase(cluster: Cluster, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  cluster.admin ??= new Bun.SQL(cluster.url);
  await cluster.admin.unsafe(`CREATE DATABASE ${name}`);
  return `postgres://postgres@127.0.0.1:${cluster.port}/${name}`;
}
