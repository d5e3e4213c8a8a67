// sourcemap-upload.ts: sends the client's source maps to Sentry with Sentry's own CLI, as one artifact bundle
// tied to the release the server reports (SENTRY_RELEASE, else the client build id).
import { join, resolve } from "node:path";
import type { Manifest } from "../assets/manifest.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const REQUIRED = ["SENTRY_AUTH_TOKEN", "SENTRY_ORG", "SENTRY_PROJECT"] as const;

type Env = Record<string, string | undefined>;

/** Why the maps did not reach Sentry, in one line for the operator (sentry-cli's own output after it). */
export class UploadError extends Error {
  override name = "UploadError";
}

/** What `bun run build` says when no token asks it to upload. */
export const HOW_TO_UPLOAD =
  "source maps not sent to Sentry: set SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT (and SENTRY_URL for self-hosted Sentry) to upload them with the build, or run `bun run sourcemaps:upload` after it";

/** Whether the environment asks for an upload: a token is the one thing only someone with Sentry access has. */
export const wantsUpload = (env: Env) => Boolean(env.SENTRY_AUTH_TOKEN?.trim());

/** Throws what an upload would miss, so a build that is to upload fails before it builds. */
export function requireUploadEnv(env: Env): void {
  const missing = REQUIRED.filter((name) => !env[name]?.trim());
  if (missing.length)
    throw new UploadError(`${missing.join(", ")} must be set (SENTRY_URL too, for self-hosted Sentry)`);
}

/** Uploads `dir` (a build's sourcemaps/, its client/ beside it) and resolves with the release it is tied to. */
export async function uploadSourcemaps(dir: string, env: Env): Promise<{ release: string }> {
  requireUploadEnv(env);
  const manifestFile = Bun.file(join(dir, "../client/manifest.json"));
  if (!(await manifestFile.exists()))
    throw new UploadError(`no client build beside ${dir}; run \`bun run build\` first`);
  // The server's own rule (src/server/create-app.ts): SENTRY_RELEASE, else the build id of the client it serves.
  const release = env.SENTRY_RELEASE?.trim() || ((await manifestFile.json()) as Manifest).buildId;
  // sentry-cli reads SENTRY_AUTH_TOKEN, SENTRY_ORG, SENTRY_PROJECT and SENTRY_URL from the environment itself.
  // --strict: a map it cannot upload is a failed upload, not a warning in a build log.
  const cli = Bun.spawn(
    [join(ROOT, "node_modules/.bin/sentry-cli"), "sourcemaps", "upload", "--strict", "--release", release, dir],
    {
      env,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [code, out, err] = await Promise.all([
    cli.exited,
    new Response(cli.stdout).text(),
    new Response(cli.stderr).text(),
  ]);
  if (code !== 0)
    throw new UploadError(`sentry-cli sourcemaps upload failed (exit ${code}):\n${`${out}${err}`.trim()}`);
  return { release };
}
