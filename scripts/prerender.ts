// prerender.ts: `bun scripts/prerender.ts <client dir> [app module]`: the build step that renders the app's
// prerendered pages into `<client dir>/prerendered.json`. Run by `bun run build` in a process of its own, under
// NODE_ENV=production (React's production build).
import { prerenderInto } from "../src/server/build/prerender.ts";

const [clientDir, appModule] = process.argv.slice(2);
if (!clientDir) throw new Error("usage: bun scripts/prerender.ts <client dir> [app module]");
try {
  const { routes, notFound } = await prerenderInto(clientDir, appModule);
  console.log(`prerendered ${routes.join(", ") || "no routes"}${notFound ? " and the not-found page" : ""}`);
} catch (error) {
  console.error(`prerender failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
