// log-lines.ts (test support): every log line a served app wrote for the requests a test made, known complete
// at once rather than after a wait in which more might come.
import type { LogRecord } from "../../src/server/monitoring/logger.ts";
import { logFor } from "brisk/test";

/**
 * The lines logged after the first `before`, up to the line of a request sent now. The requests before it
 * have been answered, and a request's line is written as it is answered: by the marker's line, theirs are in.
 * (A streamed page's line waits for its render to end: wait for that line first.)
 */
export async function linesBefore(server: { origin: string; logs: LogRecord[] }, before: number): Promise<LogRecord[]> {
  const marker = await fetch(`${server.origin}/healthz`);
  await marker.arrayBuffer();
  const line = await logFor(server.logs, marker);
  return server.logs.slice(before, server.logs.indexOf(line));
}
