// replica.ts: the example app in a process of its own, one of several instances on one database, for the tests of
// what must cross from one to another: `bun test/app/replica.ts` with DATABASE_URL and DATA_DIR set prints its origin
// on a line, then serves until SIGTERM. In one process, instances would share the example's store, and revalidateTag
// would reach their render caches without the database.
import { listenApp } from "brisk/test";

const app = await listenApp({ env: { DATABASE_URL: Bun.env.DATABASE_URL!, DATA_DIR: Bun.env.DATA_DIR! } });
console.log(app.origin);
process.once("SIGTERM", () => void app.stop().then(() => process.exit(0)));
