// The development start log: every rebuild starts the app again, and a warning the start before gave is not
// repeated; one that comes back after a start without it is said again.
import { expect, test } from "bun:test";
import { startLogs } from "../../../src/server/dev/start-log.ts";
import type { LogRecord } from "../../../src/server/monitoring/logger.ts";

test("a warning repeated from the previous start is left out; info lines and new warnings are not", () => {
  const written: LogRecord[] = [];
  const next = startLogs((record) => void written.push(record));
  const secret: LogRecord = { level: "warn", msg: "COOKIE_SECRET is unset" };
  const database: LogRecord = { level: "warn", msg: "the database cannot be reached" };
  const first = next();
  first(secret);
  first({ level: "info", msg: "store ready" });
  const second = next();
  second(secret);
  second(database);
  second({ level: "info", msg: "store ready" });
  const third = next();
  third(secret);
  const fourth = next();
  fourth(database);
  expect(written.map((r) => r.msg)).toEqual([
    "COOKIE_SECRET is unset",
    "store ready",
    "the database cannot be reached",
    "store ready",
    "the database cannot be reached",
  ]);
});
