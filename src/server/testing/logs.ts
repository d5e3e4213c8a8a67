// logs.ts (brisk/test): the log line a served app wrote for one response.
import type { LogRecord } from "../../runtime/app-server.ts";

/** Waits until a response's log line has been written (streamed pages log when they finish). */
export async function logFor(logs: LogRecord[], response: Response, timeoutMs = 3000): Promise<LogRecord> {
  const id = response.headers.get("x-request-id");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = logs.find((l) => l.msg === "request" && l.requestId === id);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no log line for request ${id}; have ${JSON.stringify(logs)}`);
    await Bun.sleep(5);
  }
}
