// app-start.ts: what must happen once before an app serves: the cookie signing secrets (COOKIE_SECRET, or one
// kept under DATA_DIR) and the app's own start (its database). The server and the tests start apps this way.
import type { AppDefinition } from "../runtime/app-definition.ts";
import type { AppConfig } from "../runtime/app-server.ts";
import type { Config } from "./config/config.ts";
import { loadCookieSecrets } from "./cookies/cookie-secret.ts";
import { createCookieSigner, type CookieSigner } from "./cookies/cookie-signer.ts";
import type { Logger } from "./monitoring/logger.ts";

export interface StartedApp {
  cookieSigner: CookieSigner;
  /** What the app's own start was given: its part of the configuration. */
  config: AppConfig;
  /** The app's own stop, after the last request. */
  stop(): Promise<void>;
}

/** Rejects with an Error whose message is one line for the operator (a ConfigError names its variable). */
export async function startApp(config: Config, app: AppDefinition, log: Logger): Promise<StartedApp> {
  const { secrets, warning } = await loadCookieSecrets(config);
  if (warning) log({ level: "warn", msg: warning });
  const cookieSigner = await createCookieSigner(secrets);
  // The app's part only: the operator's secrets and the server's limits are no app's contract.
  const appConfig: AppConfig = { mode: config.mode, dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  await app.server?.start?.({ config: appConfig, log });
  return { cookieSigner, config: appConfig, stop: async () => void (await app.server?.stop?.()) };
}
