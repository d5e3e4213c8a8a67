// soak-shipper.ts: the server's stdout as a container platform gives it: a named pipe drained by a log shipper
// (`cat`), which the soak can kill and start again, as a shipper that crashes and restarts.
import { openSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { eachLine } from "./soak-logs.ts";

export interface LogShipper {
  /** The pipe's write end, for the server's stdout; close it once the server holds it. */
  readonly fd: number;
  /** Kills the shipper: the server's writes fail (EPIPE) until restart(). */
  kill(): Promise<void>;
  restart(): void;
  /** Resolves once every shipper has read to the end: after the server has exited. */
  ended(): Promise<void>;
}

/**
 * `onLine(line, first)`: `first` is true for the first line a restarted shipper reads, which may be the tail
 * of a line the killed one had begun.
 */
export function startShipper(dir: string, onLine: (line: string, first: boolean) => void): LogShipper {
  const fifo = join(dir, "stdout.fifo");
  if (Bun.spawnSync(["mkfifo", fifo]).exitCode !== 0) throw new Error(`mkfifo ${fifo} failed`);
  const readings: Array<Promise<void>> = [];
  let reader: Subprocess<"ignore", "pipe", "inherit">;
  const start = (restarted: boolean) => {
    reader = Bun.spawn(["cat", fifo], { stdin: "ignore", stdout: "pipe", stderr: "inherit" });
    let first = restarted;
    readings.push(
      eachLine(reader.stdout, (line) => {
        onLine(line, first);
        first = false;
      }),
    );
  };
  start(false);
  // Opening a pipe for writing waits for a reader: `cat` is one, or is about to be.
  const fd = openSync(fifo, "w");
  return {
    fd,
    async kill() {
      reader.kill("SIGKILL");
      await reader.exited;
    },
    restart: () => start(true),
    ended: () => Promise.all(readings).then(() => {}),
  };
}
