// bench-app.ts: the module of the bench's own app (bench/app/app.ts), for what takes an app by its path: the
// client build and the binary. The bench's servers import it directly.
import { join } from "node:path";

export const BENCH_APP = join(import.meta.dir, "../app/app.ts");
