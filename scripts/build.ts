// build.ts: `bun run build`: the production client, one self-contained server binary that embeds it, and with
// SENTRY_AUTH_TOKEN the client's source maps uploaded to Sentry.
import { runBuild } from "../src/server/build/build-command.ts";
import { UploadError } from "../src/server/build/sourcemap-upload.ts";

await runBuild({ env: Bun.env, log: (line) => console.log(line) }).catch((error: unknown) => {
  if (!(error instanceof UploadError)) throw error;
  console.error(`build: ${error.message}`);
  process.exit(1);
});
