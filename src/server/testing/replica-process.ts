// replica-process.ts (brisk/test): the process startReplicas spawns: one replica of an app, served on a socket with
// the ServeOptions it is handed as JSON in BRISK_REPLICA, printing its origin on a line and serving until SIGTERM.
import { listenApp, type ServeOptions } from "./serve.ts";

const options = JSON.parse(Bun.env.BRISK_REPLICA ?? "{}") as ServeOptions;
const app = await listenApp(options);
console.log(app.origin);
process.once("SIGTERM", () => void app.stop().then(() => process.exit(0)));
