// Home.server.ts: the home page's loader (server only, like every *.server.ts module).
import { EXAMPLES } from "./examples.ts";

export function homeLoader() {
  return { examples: EXAMPLES };
}
