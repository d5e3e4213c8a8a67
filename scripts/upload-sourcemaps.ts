// upload-sourcemaps.ts: `bun run sourcemaps:upload [dir]`: sends a build's client source maps to Sentry again, or
// later than `bun run build` did (see src/server/build/sourcemap-upload.ts).
import { join, resolve } from "node:path";
import { UploadError, uploadSourcemaps } from "../src/server/build/sourcemap-upload.ts";

const dir = resolve(process.argv[2] ?? join(import.meta.dir, "../dist/sourcemaps"));
try {
  const { release } = await uploadSourcemaps(dir, Bun.env);
  console.log(`sourcemaps:upload: sent ${dir} to Sentry for release ${release}`);
} catch (error) {
  if (!(error instanceof UploadError)) throw error;
  console.error(`sourcemaps:upload: ${error.message}`);
  process.exit(1);
}
