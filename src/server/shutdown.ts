// shutdown.ts: stops a server gracefully: no new connections, in-flight requests finish within a deadline.

export interface Drainable {
  /** Bun.Server.stop: false keeps in-flight requests (streamed bodies included) and resolves when they end. */
  stop(closeActiveConnections?: boolean): Promise<void>;
  readonly pendingRequests: number;
}

export interface DrainResult {
  /** False when the deadline passed and the remaining requests were cut off. */
  drained: boolean;
  /** Requests still running at the deadline. */
  abandoned: number;
}

export async function drain(server: Drainable, timeoutMs: number): Promise<DrainResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const drained = await Promise.race([server.stop(false).then(() => true as const), deadline]);
  clearTimeout(timer);
  if (drained) return { drained, abandoned: 0 };
  const abandoned = server.pendingRequests;
  await server.stop(true);
  return { drained, abandoned };
}

export type StopSignal = "SIGTERM" | "SIGINT";

/**
 * Runs `stop` on the first SIGTERM or SIGINT, then exits 0. A second signal exits at once with 1:
 * someone pressing Ctrl+C again does not want to wait for the deadline.
 */
export function onStopSignal(stop: (signal: StopSignal) => Promise<void>): void {
  let stopping = false;
  const handle = (signal: StopSignal) => {
    if (stopping) process.exit(1);
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("brisk: shutdown failed:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", handle);
  process.on("SIGINT", handle);
}
