// server-sourcemaps.ts: `bun bench/server-sourcemaps.ts`: what embedding the server's source maps costs the binary:
// size, cold start and the CPU it takes, and RSS idle and after 2,000 requests to /.
import { compareBinaries } from "./lib/binary-variants.ts";

await compareBinaries("server source maps", [
  { name: "with (the default)", options: { serverSourcemaps: true } },
  { name: "without (`buildBinary({ serverSourcemaps: false })`)", options: { serverSourcemaps: false } },
]);
