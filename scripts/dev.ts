// dev.ts: `bun run dev`: the app in development, with hot updates (src/server/dev/dev-server.ts).
import { startDevServer } from "../src/server/dev/dev-server.ts";

await startDevServer(Bun.env);
