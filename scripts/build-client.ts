// build-client.ts: `bun run build:client`: the client build into dist/client (NODE_ENV picks the mode).
import { buildClient } from "../src/server/build/client-build.ts";

const mode = process.env.NODE_ENV === "development" ? "development" : "production";
const started = performance.now();
const manifest = await buildClient({ mode });
console.log(
  `client built (${mode}) in ${Math.round(performance.now() - started)} ms: build ${manifest.buildId}, ${manifest.files.length} files`,
);
