// prerender-start.ts: `bun bench/prerender-start.ts`: what rendering the prerendered pages at build time spares the
// binary's start: the same build with its pages in prerendered.json (the default), and without, so that it renders
// them just after it listens, alongside its first requests. Size, cold start, CPU, RSS idle and after load.
import { compareBinaries } from "./lib/binary-variants.ts";

await compareBinaries("prerendered pages", [
  { name: "rendered by the build (the default)", options: {} },
  { name: "rendered at start (`buildBinary({ prerender: false })`)", options: { prerender: false } },
]);
