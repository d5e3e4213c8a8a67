// abandon-client.ts: visitors who leave a streamed answer at its first bytes and come straight back (red team F4),
// on a worker thread: each connection asks, reads the first bytes, closes, and asks again on a new one, from one
// loopback address or several (each a visitor of its own, for the server's per-visitor bounds).
import { connect } from "node:net";

export interface AbandonOptions {
  port: number;
  path: string;
  /** The Accept-Encoding header sent. */
  encoding: string;
  connections: number;
  seconds: number;
  /** How many loopback addresses the connections come from, 127.0.0.1 and up, in turn: each is a visitor of its own. */
  addresses: number;
}

/** How the visitors fared: answers by their status (from the first bytes), and connections that got none. */
export interface Abandoned {
  answered: number;
  failed: number;
  statuses: Record<string, number>;
}

/** One request on a fresh connection from `localAddress`, given up at its first bytes; their status, or undefined when none came. */
function once({ port, path, encoding }: AbandonOptions, localAddress: string): Promise<string | undefined> {
  return new Promise((done) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    socket.on("error", () => done(undefined));
    socket.once("data", (chunk) => {
      socket.destroy();
      done(chunk.toString("latin1").slice(9, 12));
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept-Encoding: ${encoding}\r\n\r\n`);
  });
}

if (!Bun.isMainThread) {
  self.onmessage = async (event: MessageEvent<AbandonOptions>) => {
    const options = event.data;
    const until = performance.now() + options.seconds * 1000;
    const result: Abandoned = { answered: 0, failed: 0, statuses: {} };
    const loop = async (n: number) => {
      const from = `127.0.0.${(n % options.addresses) + 1}`;
      while (performance.now() < until) {
        const status = await once(options, from);
        if (status === undefined) result.failed++;
        else result.answered++, (result.statuses[status] = (result.statuses[status] ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: options.connections }, (_, n) => loop(n)));
    postMessage(result);
  };
}

/** Runs the visitors on a worker thread until `seconds` have passed; resolves with how they fared. */
export function abandonStreams(options: AbandonOptions): Promise<Abandoned> {
  const worker = new Worker(import.meta.url);
  const { promise, resolve } = Promise.withResolvers<Abandoned>();
  worker.onmessage = (event: MessageEvent<Abandoned>) => {
    worker.terminate();
    resolve(event.data);
  };
  worker.postMessage(options);
  return promise;
}
