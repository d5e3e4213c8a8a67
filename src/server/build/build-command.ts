// build-command.ts: `bun run build`: the binary, then, when SENTRY_AUTH_TOKEN says so, its client's source maps
// to Sentry, so a release never runs without the maps that make its browser stacks readable.
import { join, resolve } from "node:path";
import { buildBinary } from "./binary.ts";
import { HOW_TO_UPLOAD, requireUploadEnv, uploadSourcemaps, wantsUpload } from "./sourcemap-upload.ts";

const ROOT = resolve(import.meta.dir, "../../..");

export interface BuildCommandOptions {
  /** dist/ unless a test builds elsewhere. */
  outdir?: string;
  /** `#app` unless a test builds a fixture app. */
  appModule?: string;
  env: Record<string, string | undefined>;
  /** One line per step. */
  log(line: string): void;
}

/** Rejects with an UploadError when the maps were asked for and did not reach Sentry. */
export async function runBuild({
  outdir = join(ROOT, "dist"),
  appModule,
  env,
  log,
}: BuildCommandOptions): Promise<void> {
  const upload = wantsUpload(env);
  if (upload) requireUploadEnv(env);
  const started = performance.now();
  const { binary, bytes, buildId, prerendered } = await buildBinary({ outdir, appModule });
  const mib = (bytes / 1_048_576).toFixed(1);
  log(
    `built ${binary} (${mib} MiB, client build ${buildId}; ${prerendered}) in ${Math.round(performance.now() - started)} ms`,
  );
  if (!upload) return log(HOW_TO_UPLOAD);
  const { release } = await uploadSourcemaps(join(outdir, "sourcemaps"), env);
  log(`source maps sent to Sentry for release ${release}`);
}
