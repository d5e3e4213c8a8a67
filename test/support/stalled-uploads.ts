// stalled-uploads.ts (test support): the red team's stalled-upload attack (issue 23, R2; issue 29, F6): connections
// that send a POST's headers with `Content-Length` (and perhaps the body's first bytes) and then nothing, each
// opened again as soon as the server closes it; or, with `bytesPerSecond`, that trickle the rest of the body
// at that rate, just above the server's pace, and post again on a new connection once answered (red team N2).
// They come from other loopback addresses than the visitors' 127.0.0.1 (node:net's localAddress), so the server
// sees other clients, as it would see an attacker on the internet.
import { connect } from "node:net";

export interface StallOptions {
  port: number;
  /** The attackers' addresses, e.g. ["127.0.0.2", "127.0.0.3"]; each holds `connections` at once. */
  from: readonly string[];
  connections: number;
  /** Request target and headers of every stalled post (Host and Content-Length are added). */
  path: string;
  /** Or the headers of the n-th post opened (from 0), for headers that change with each. */
  headers: Record<string, string> | ((n: number) => Record<string, string>);
  /** The Content-Length declared and never sent in full. */
  declared?: number;
  /** Body bytes sent with the headers before the stall (red team F6 sent 100); none by default. */
  sent?: number;
  /**
   * Instead of stalling, the rest of the body at this rate, a quarter of it every 250 ms (the red team's
   * 5,000 to hold a slot for as long as `declared` takes); the connection is closed once the body is answered.
   */
  bytesPerSecond?: number;
}

export interface StallAttack {
  /** Resolves once every connection has been opened once and has sent its post (the server takes it in after). */
  ready: Promise<void>;
  /** Resolves once the server has answered `count` of the stalled posts with `status`. */
  answered(status: string, count: number): Promise<void>;
  /** Closes every connection; resolves with how many were opened and the status (or "closed") each ended with. */
  stop(): Promise<{ opened: number; answers: Map<string, number> }>;
}

/** How often a trickle sends its next piece. */
const TRICKLE_EVERY_MS = 250;

export function stallUploads({
  port,
  from,
  connections,
  path,
  headers,
  declared = 100_000,
  sent = 0,
  bytesPerSecond,
}: StallOptions): StallAttack {
  const opening = (n: number) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${declared}\r\n` +
    Object.entries(typeof headers === "function" ? headers(n) : headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("") +
    "\r\n" +
    "a".repeat(sent);
  let stopped = false;
  let opened = 0;
  const allOpened = Promise.withResolvers<void>();
  const answers = new Map<string, number>();
  const awaited: Array<{ status: string; count: number; resolve: () => void }> = [];
  const open = new Set<ReturnType<typeof connect>>();
  /** One stalled post; resolves when the server (or stop) closes it. */
  const stall = (localAddress: string) =>
    new Promise<void>((resolve) => {
      let received = "";
      let trickle: ReturnType<typeof setInterval> | undefined;
      const socket = connect({ host: "127.0.0.1", port, localAddress }, () => {
        socket.write(opening(opened++));
        if (opened === from.length * connections) allOpened.resolve();
        if (!bytesPerSecond) return;
        let left = declared - sent;
        const piece = Math.ceil((bytesPerSecond * TRICKLE_EVERY_MS) / 1000);
        trickle = setInterval(() => {
          const size = Math.min(piece, left);
          left -= size;
          if (size > 0) socket.write("a".repeat(size));
        }, TRICKLE_EVERY_MS);
      });
      open.add(socket);
      let answered = false;
      const count = (answer: string) => {
        if (stopped) return;
        answers.set(answer, (answers.get(answer) ?? 0) + 1);
        for (const wait of awaited) if (wait.status === answer && answers.get(answer)! >= wait.count) wait.resolve();
      };
      // The socket stays open after a refusal until the server closes it, as the attacker left it; a trickling
      // one whose body was read (or cut) posts again at once, on a new connection.
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
        const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
        if (status && !answered) count(status);
        answered ||= status !== undefined;
        if (bytesPerSecond && status && status !== "429") socket.destroy();
      });
      socket.on("error", () => {});
      socket.on("close", () => {
        clearInterval(trickle);
        open.delete(socket);
        if (!answered) count("closed");
        resolve();
      });
    });
  const loops = from.flatMap((address) =>
    Array.from({ length: connections }, async () => {
      while (!stopped) await stall(address);
    }),
  );
  return {
    ready: allOpened.promise,
    answered(status, count) {
      if ((answers.get(status) ?? 0) >= count) return Promise.resolve();
      const { promise, resolve } = Promise.withResolvers<void>();
      awaited.push({ status, count, resolve });
      return promise;
    },
    async stop() {
      stopped = true;
      for (const socket of open) socket.destroy();
      await Promise.all(loops);
      return { opened, answers };
    },
  };
}
