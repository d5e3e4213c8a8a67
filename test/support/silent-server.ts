// silent-server.ts (test support): a server that accepts connections and never answers, for a request that
// "never answers" at the network, where the browser sees it as such. A request held in Playwright's route
// handler instead stays paused inside Chromium, and closing the browser context waits for paused requests.
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
