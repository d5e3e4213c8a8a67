// build.ts: `bun run build`: the production client, then one self-contained server binary that embeds it.
import { buildBinary } from "../src/server/build/binary.ts";

const started = performance.now();
const { binary, bytes, buildId, prerendered } = await buildBinary();
const mib = (bytes / 1_048_576).toFixed(1);
console.log(`built ${binary} (${mib} MiB, client build ${buildId}; ${prerendered}) in ${Math.round(performance.now() - started)} ms`);
