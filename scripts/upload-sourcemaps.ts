// upload-sourcemaps.ts: `bun run sourcemaps:upload [dir]`: sends the client's source maps to Sentry with Sentry's own
// CLI, as one artifact bundle tied to the release the server reports (SENTRY_RELEASE, else the client build id).
import { join, resolve } from "node:path";
import type { Manifest } from "../src/server/http/manifest.ts";

const ROOT = resolve(import.meta.dir, "..");
const REQUIRED = ["SENTRY_AUTH_TOKEN", "SENTRY_ORG", "SENTRY_PROJECT"] as const;

function fail(message: string): never {
  console.error(`sourcemaps:upload: ${message}`);
  process.exit(1);
}

const dir = resolve(process.argv[2] ?? join(ROOT, "dist/sourcemaps"));
const missing = REQUIRED.filter((name) => !Bun.env[name]?.trim());
if (missing.length) fail(`${missing.join(", ")} must be set (SENTRY_URL too, for self-hosted Sentry)`);
const manifestFile = Bun.file(join(dir, "../client/manifest.json"));
if (!(await manifestFile.exists())) fail(`no client build beside ${dir}; run \`bun run build\` first`);
// The server's own rule (src/server/create-app.ts): SENTRY_RELEASE, else the build id of the client it serves.
const release = Bun.env.SENTRY_RELEASE?.trim() || ((await manifestFile.json()) as Manifest).buildId;

// sentry-cli reads SENTRY_AUTH_TOKEN, SENTRY_ORG, SENTRY_PROJECT and SENTRY_URL from the environment itself.
// --strict: a map it cannot upload is a failed upload, not a warning in a build log.
const cli = Bun.spawn([join(ROOT, "node_modules/.bin/sentry-cli"), "sourcemaps", "upload", "--strict", "--release", release, dir], {
  stdio: ["ignore", "inherit", "inherit"],
});
process.exit(await cli.exited);
