// startup-config.ts: the configuration a process starts with, or one line naming the bad variable and exit 1.
import { ConfigError, parseConfig, type Config } from "./config.ts";

export function configOrExit(env: Record<string, string | undefined>): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`brisk: invalid configuration: ${error.message}`);
    process.exit(1);
  }
}
