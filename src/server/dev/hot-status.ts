// hot-status.ts: development only: tells the page's dev script (dev-page.ts) whether Bun's hot updates reach this
// page. They do only once its socket is connected, a second or two after the page loads: an edit saved
// before then never comes, and the dev script reloads the page for it instead.
import { HOT_UPDATES } from "./dev-page.ts";

const status = globalThis as Record<symbol, boolean>;
import.meta.hot.on("bun:ws:connect", () => (status[Symbol.for(HOT_UPDATES)] = true));
import.meta.hot.on("bun:ws:disconnect", () => (status[Symbol.for(HOT_UPDATES)] = false));
