// abandon-client.ts: visitors who leave a streamed answer at its first bytes and come straight back (red team F4),
// on a worker thread: each connection asks, reads the first bytes, closes, and asks again on a new one.
import { connect } from "node:net";

export interface AbandonOptions {
  port: number;
  path: string;
  /** The Accept-Encoding header sent. */
  encoding: string;
  connections: number;
  seconds: number;
}

/** One request on a fresh connection, given up at its first bytes; true when any came. */
function once({ port, path, encoding }: AbandonOptions): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.on("error", () => done(false));
    socket.once("data", () => {
      socket.destroy();
      done(true);
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept-Encoding: ${encoding}\r\n\r\n`);
  });
}

if (!Bun.isMainThread) {
  self.onmessage = async (event: MessageEvent<AbandonOptions>) => {
    const options = event.data;
    const until = performance.now() + options.seconds * 1000;
    let answered = 0;
    let failed = 0;
    const loop = async () => {
      while (performance.now() < until) (await once(options)) ? answered++ : failed++;
    };
    await Promise.all(Array.from({ length: options.connections }, loop));
    postMessage({ answered, failed });
  };
}

/** Runs the visitors on a worker thread until `seconds` have passed; resolves with how many got bytes or not. */
export function abandonStreams(options: AbandonOptions): Promise<{ answered: number; failed: number }> {
  const worker = new Worker(import.meta.url);
  const { promise, resolve } = Promise.withResolvers<{ answered: number; failed: number }>();
  worker.onmessage = (event: MessageEvent<{ answered: number; failed: number }>) => {
    worker.terminate();
    resolve(event.data);
  };
  worker.postMessage(options);
  return promise;
}
