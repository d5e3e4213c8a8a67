// start-log.ts: the log the app's start writes to in development, where every rebuild starts the app again: a
// warning the previous start already gave (COOKIE_SECRET unset, say) is not repeated on every save.
import type { LogRecord, Logger } from "../monitoring/logger.ts";

/** A logger for each start; a warning repeated from the start just before it is left out. */
export function startLogs(write: (record: LogRecord) => void): () => Logger {
  let previous = new Set<string>();
  return () => {
    const before = previous;
    const now = (previous = new Set<string>());
    return (record) => {
      if (record.level === "warn") {
        now.add(record.msg);
        if (before.has(record.msg)) return;
      }
      write(record);
    };
  };
}
