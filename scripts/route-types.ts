// route-types.ts: writes the app's route patterns for the type checker (src/server/build/route-types.ts); the first
// step of `bun run typecheck`. Quiet unless the table changed.
import { loadAppModule } from "../src/server/build/app-module.ts";
import { ROUTE_TYPES_FILE, writeRouteTypes } from "../src/server/build/route-types.ts";

const { app } = await loadAppModule();
if (await writeRouteTypes(app.routes)) console.log(`route types written: ${ROUTE_TYPES_FILE}`);
