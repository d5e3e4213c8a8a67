// main.ts: the process: read the configuration, start monitoring, listen, and stop gracefully.
import { createApp } from "./app.ts";
import { ConfigError, parseConfig } from "./config.ts";
import { stdoutLogger } from "./logger.ts";

let config;
try {
  config = parseConfig(Bun.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`brisk: invalid configuration: ${error.message}`);
  process.exit(1);
}

const app = createApp(config).listen({ hostname: config.host, port: config.port });
stdoutLogger({ level: "info", msg: "listening", url: `http://${config.host}:${app.server!.port}`, mode: config.mode });
