// fixture-server.ts (DOM test support): `bun test/runtime/browser/fixture-server.ts` serves the fixture app on a
// socket and prints its origin. A process of its own: happy-dom's globals (Response & co) would break the server in
// theirs.
import { listenApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";

const served = await listenApp(FIXTURE);
console.log(`listening ${served.origin}`);
process.on("SIGTERM", () => void served.stop().then(() => process.exit(0)));
