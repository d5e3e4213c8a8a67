// load.ts: how much CPU other people's processes took while we measured. The machine may be shared
// (other sessions run browsers and test suites), and a figure taken under foreign load says so.
import { readFileSync } from "node:fs";
import { TICKS_PER_SECOND, cpuSecondsOf, ourPids } from "./proc.ts";

/** Busy CPU seconds of the whole machine so far (everything but idle and iowait). */
function machineBusySeconds(): number {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

function oursSeconds(): number {
  const self = process.cpuUsage();
  let total = (self.user + self.system) / 1e6;
  for (const pid of ourPids) {
    try {
      total += cpuSecondsOf(pid);
    } catch {
      ourPids.delete(pid); // exited
    }
  }
  return total;
}

export interface ForeignMeter {
  /** Share of one core other processes used since the meter started; `exited` adds ours that have ended (wrk). */
  read(exitedOursSeconds?: number): number;
}

export function meterForeignLoad(): ForeignMeter {
  const busy0 = machineBusySeconds();
  const ours0 = oursSeconds();
  const t0 = performance.now();
  return {
    read(exitedOursSeconds = 0) {
      const seconds = (performance.now() - t0) / 1000;
      const foreign = machineBusySeconds() - busy0 - (oursSeconds() - ours0) - exitedOursSeconds;
      return Math.max(0, foreign / seconds);
    },
  };
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them: how busy the machine was around a figure. */
export function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}
