// healthcheck.ts: `brisk --healthcheck` asks a running server for /healthz, so a container needs no curl.
import type { Config } from "./config/config.ts";

/** The server's own /healthz, reached over loopback when it listens on every address. */
export function healthUrl({ host, port }: Pick<Config, "host" | "port">): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  const hostname = reachable.includes(":") ? `[${reachable}]` : reachable;
  return `http://${hostname}:${port}/healthz`;
}

/** True when the server answers 200 in time; the reason it is not healthy otherwise. */
export async function checkHealth(
  url: string,
  timeoutMs = 3_000,
  fetcher: typeof fetch = fetch,
): Promise<true | string> {
  try {
    const response = await fetcher(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    await response.body?.cancel();
    return response.status === 200 || `${url} answered ${response.status}`;
  } catch (error) {
    return `${url} did not answer: ${error instanceof Error ? error.message : String(error)}`;
  }
}
