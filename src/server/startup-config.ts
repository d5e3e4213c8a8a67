// startup-config.ts: the configuration a process starts with, and the address it listens on, or one line
// naming the bad variable and exit 1.
import { ConfigError, parseConfig, type Config } from "./config/config.ts";
import { isLoopbackHost } from "./http/host-check.ts";

function exitWith(error: ConfigError): never {
  console.error(`brisk: invalid configuration: ${error.message}`);
  process.exit(1);
}

export function configOrExit(env: Record<string, string | undefined>): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    exitWith(error);
  }
}

/** The variable a failed listen is about, and what to say: the port is taken or privileged, else the host is not ours. */
function listenError(error: unknown, { host, port }: Pick<Config, "host" | "port">): ConfigError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EADDRINUSE") return new ConfigError("PORT", `${port} is already in use`);
  if (code === "EACCES") return new ConfigError("PORT", `${port} needs privileges this process does not have`);
  // EADDRNOTAVAIL (an address of another machine, a name that does not resolve), EINVAL (999.1.1.1), …
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError(
    "HOST",
    `cannot listen on "${host}" (${reason}); expected an address of this machine, e.g. 0.0.0.0 or 127.0.0.1`,
  );
}

/** Runs `listen`; Bun's error would print the (minified) source around the call and a stack instead of one line. */
export function listenOrExit(listen: () => void, config: Pick<Config, "host" | "port">): void {
  try {
    listen();
  } catch (error) {
    exitWith(listenError(error, config));
  }
}

/**
 * The warning for a server that browsers reach over plain HTTP while cookies are `Secure`: they drop such a
 * cookie without a word, and a visitor who signs in is not signed in. Other machines reach it (HOST is not
 * loopback) and no proxy ends TLS in front of it (TRUST_PROXY unset: behind one, form posts need it anyway).
 */
export function plainHttpWarning(
  config: Pick<Config, "host" | "port" | "trustProxy" | "cookieSecure">,
): string | undefined {
  if (!config.cookieSecure || config.trustProxy || isLoopbackHost(config.host)) return undefined;
  return (
    `cookies are Secure, which browsers keep only over HTTPS, and this server speaks plain HTTP on ${config.host}:${config.port}: ` +
    "behind a proxy that ends TLS, set TRUST_PROXY=true; to run a staging host over plain HTTP, set COOKIE_SECURE=false"
  );
}

/**
 * Exits with one line when HOST is no address of this machine, before anything else starts: the app's own
 * start (its database, a generated secret) would otherwise run, and log, for a server that never listens.
 * Port 0: whether PORT is free is for the real listen to find out.
 */
export function hostOrExit(config: Pick<Config, "host" | "port">): void {
  listenOrExit(() => Bun.listen({ hostname: config.host, port: 0, socket: { data() {} } }).stop(true), config);
}
