// soak-rss.ts: samples a process's resident memory twice a second on a worker thread: the load loops
// saturate the main event loop, where a timer would fire every few seconds instead.
import { memoryOf } from "./lib/proc.ts";
import type { RssSample } from "./soak-report.ts";

const EVERY_MS = 500;

interface Start {
  pid: number;
  /** Date.now() at the start of the load: sample times are seconds since then. */
  since: number;
}

if (!Bun.isMainThread) {
  const samples: RssSample[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;
  self.onmessage = (event: MessageEvent<Start | "stop">) => {
    if (event.data === "stop") {
      clearInterval(timer);
      postMessage(samples);
      return;
    }
    const { pid, since } = event.data;
    timer = setInterval(() => {
      try {
        samples.push({ at: (Date.now() - since) / 1000, ...memoryOf(pid) });
      } catch {
        // The process has exited: the report says so from its exit code.
      }
    }, EVERY_MS);
  };
}

/** Starts sampling `pid`; stop() ends it and resolves with every sample. */
export function sampleRss(pid: number, since: number): { stop(): Promise<RssSample[]> } {
  const worker = new Worker(import.meta.url);
  worker.postMessage({ pid, since } satisfies Start);
  return {
    stop() {
      const { promise, resolve } = Promise.withResolvers<RssSample[]>();
      worker.onmessage = (event: MessageEvent<RssSample[]>) => {
        worker.terminate();
        resolve(event.data);
      };
      worker.postMessage("stop");
      return promise;
    },
  };
}
