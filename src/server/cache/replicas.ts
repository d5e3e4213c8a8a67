// replicas.ts: a server's render cache joined to the other instances that share its PostgreSQL database, so that
// revalidateTag and revalidatePath reach every replica (pg-invalidations.ts). With SQLite, or no cached route,
// there is nothing to join: invalidations stay in the process.
import type { Logger } from "../monitoring/logger.ts";
import { startPgInvalidations } from "./pg-invalidations.ts";
import type { RenderCache } from "./render-cache.ts";

/** Resolves with what ends the link (at shutdown, after the last request), once the database has been tried. */
export async function joinReplicas(
  databaseUrl: string | undefined,
  cache: RenderCache | undefined,
  log: Logger,
): Promise<() => Promise<void>> {
  if (!cache || !databaseUrl || !/^postgres(ql)?:/i.test(databaseUrl)) return async () => {};
  const bus = await startPgInvalidations({ url: databaseUrl, cache, log });
  cache.bus = bus;
  return async () => {
    cache.bus = undefined;
    await bus.close();
  };
}
