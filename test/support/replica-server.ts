// replica-server.ts (test support): an app served in a process of its own, as one replica of several on one
// database: the fixture app, or the example app with REPLICA_APP=example. DATABASE_URL and DATA_DIR come from the
// environment; it prints its origin on a line, then serves until SIGTERM. Replicas in one process would share its
// render caches, which revalidateTag reaches without any database.
import { listenApp } from "brisk/test";
import { FIXTURE } from "./app.ts";

const app = await listenApp({
  ...(Bun.env.REPLICA_APP === "example" ? {} : FIXTURE),
  env: { DATABASE_URL: Bun.env.DATABASE_URL!, DATA_DIR: Bun.env.DATA_DIR! },
});
console.log(app.origin);
process.once("SIGTERM", () => void app.stop().then(() => process.exit(0)));
