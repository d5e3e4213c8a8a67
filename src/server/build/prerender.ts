// prerender.ts: `bun scripts/prerender.ts <client dir> [app module]`: the build step that renders the app's prerendered
// pages (and its not-found page) once, as the production server would, and keeps them beside the client
// build as prerendered.json: the binary serves them from its first request instead of rendering them at start.
// Run by scripts/build.ts in a process of its own, under NODE_ENV=production (React's production build).
import { join } from "node:path";
import { allRoutes } from "../../runtime/route-tree.ts";
import { loadAppModule } from "./app-module.ts";
import { loadClientAssets } from "../assets/assets.ts";
import { PRERENDERED_FILE } from "../prerender/built-pages.ts";
import { parseConfig } from "../config/config.ts";
import { importedAssets } from "../assets/imported-assets.ts";
import { startApp } from "../app-start.ts";

/** Renders the pages into `<clientDir>/prerendered.json`; rejects naming a route that cannot be prerendered. */
export async function prerenderInto(
  clientDir: string,
  appModule?: string,
): Promise<{ routes: string[]; notFound: boolean }> {
  if (Bun.env.NODE_ENV !== "production")
    throw new Error("prerendering needs NODE_ENV=production: pages render as the server renders them");
  // As main.ts: what components import resolves to the client build's hashed URLs.
  Bun.plugin(importedAssets());
  const [{ createApp, renderPrerenderedPages, prerenderedPages }, { app }] = await Promise.all([
    import("../create-app.ts"),
    loadAppModule(appModule),
  ]);
  // A secret of this build alone: a prerendered loader may not read or set cookies, and none is kept.
  const config = { ...parseConfig(Bun.env), cookieSecrets: [crypto.randomUUID()] };
  // The app's own start (its database) only for a route's loader: the not-found page alone runs none, and a
  // build need not reach the app's database for it. A not-found page that fails without it is rendered at start.
  const needsStart = allRoutes(app.routes).some((route) => route.prerender);
  const started = await startApp(config, needsStart ? app : { ...app, server: undefined }, (record) =>
    console.error(JSON.stringify(record)),
  );
  try {
    const server = createApp(config, app, {
      assets: loadClientAssets(app.routes, clientDir),
      cookieSigner: started.cookieSigner,
      log: () => {},
    });
    await renderPrerenderedPages(server);
    const pages = prerenderedPages(server)!;
    await Bun.write(join(clientDir, PRERENDERED_FILE), JSON.stringify(pages));
    return { routes: Object.keys(pages.routes), notFound: pages.notFound !== null };
  } finally {
    await started.stop();
  }
}
