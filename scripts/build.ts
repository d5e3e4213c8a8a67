// build.ts: `bun run build`: the production client, then one self-contained server binary that embeds it.
import { mkdir, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildClient } from "./build-client.ts";

const ROOT = resolve(import.meta.dir, "..");

export interface BinaryBuild {
  binary: string;
  bytes: number;
  buildId: string;
}

/**
 * Builds `<outdir>/brisk` with the client from `<outdir>/client` embedded. `--asset` keeps only the last
 * segment of the folder, so the binary finds it as `client/` beside its own code (see findClientDir).
 */
export async function buildBinary({ outdir = join(ROOT, "dist") }: { outdir?: string } = {}): Promise<BinaryBuild> {
  const clientDir = join(outdir, "client");
  const binary = join(outdir, "brisk");
  await mkdir(outdir, { recursive: true });
  await rm(binary, { force: true });
  const manifest = await buildClient({ outdir: clientDir, mode: "production" });
  const cmd = [
    process.execPath,
    "build",
    "--compile",
    // --compile alone left NODE_ENV as development at runtime: React's dev build would leak stacks into pages.
    "--production",
    // --bytecode defaults to CommonJS, where main.ts's top-level await does not build.
    "--bytecode",
    "--format",
    "esm",
    // Configuration comes from the environment only; a stray bunfig.toml in the working folder must not change the binary.
    "--no-compile-autoload-bunfig",
    // Without it every `await import()` in main.ts is evaluated at start-up anyway (~40 ms of cold start).
    "--splitting",
    join(ROOT, "src/server/main.ts"),
    "--asset",
    clientDir,
    "--outfile",
    binary,
  ];
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`bun build --compile failed (exit ${code}):\n${out}${err}`);
  return { binary, bytes: (await stat(binary)).size, buildId: manifest.buildId };
}

if (import.meta.main) {
  const started = performance.now();
  const { binary, bytes, buildId } = await buildBinary();
  const mib = (bytes / 1_048_576).toFixed(1);
  console.log(`built ${binary} (${mib} MiB, client build ${buildId}) in ${Math.round(performance.now() - started)} ms`);
}
