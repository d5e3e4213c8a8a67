// soak-env.ts: the environment the soak's servers run with: the binary in production as the image runs it (its heap
// sizing too), on a loopback port, Sentry on at the soak's fake ingest, and everything it writes in the soak's own
// folder.
import { join } from "node:path";
import { JSC_RAM_SIZE } from "./bench-servers.ts";
import { definedEnv } from "./proc.ts";

export function soakServerEnv(
  port: number,
  dsn: string,
  dir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return definedEnv({
    ...Bun.env,
    NODE_ENV: "production",
    // As the image runs the binary.
    BUN_JSC_forceRAMSize: JSC_RAM_SIZE,
    HOST: "127.0.0.1",
    PORT: String(port),
    SENTRY_DSN: dsn,
    SENTRY_TUNNEL_DSNS: undefined,
    // Set, as a deployment sets it: otherwise the start warns that it generated one.
    COOKIE_SECRET: "soak-cookie-secret-of-at-least-32-characters",
    // The store, the cookie secret and Sentry's outbox in the soak's own folder, never the checkout's ./data.
    DATA_DIR: join(dir, "data"),
    ...extra,
  });
}
