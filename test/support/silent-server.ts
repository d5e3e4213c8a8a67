// silent-server.ts (test support): a server that accepts connections and never answers, for a request that
// "never answers" at the network, where the browser sees it as such. Holding the request inside Playwright's
// route handler instead leaves a route pending in the driver, and one such kept context.close() waiting
// until the test's timeout in CI runs (and the browser's teardown then failed the tests after it).
import type { Socket } from "bun";

export interface SilentServer {
  /** http://127.0.0.1:<port>: a request sent here waits until `stop`. */
  origin: string;
  /** How many connections it has accepted. */
  connections(): number;
  /** Closes every connection: the requests they carried fail with an empty response. */
  stop(): void;
}

export function startSilentServer(): SilentServer {
  const open = new Set<Socket>();
  let accepted = 0;
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        accepted++;
        open.add(socket);
      },
      data() {},
      close(socket) {
        open.delete(socket);
      },
    },
  });
  return {
    origin: `http://127.0.0.1:${listener.port}`,
    connections: () => accepted,
    stop() {
      for (const socket of open) socket.end();
      listener.stop(true);
    },
  };
}
