// stream-timing.ts: time to first byte and to the last byte of one response, over a raw socket.
// A raw socket sees the first bytes the moment they arrive; fetch would wait for the headers to parse.

export interface Timing {
  ttfbMs: number;
  totalMs: number;
  status: number;
  firstChunkBytes: number;
}

/** GET `path` with `Connection: close`: the response ends when the server closes the socket. */
export function timeRequest(port: number, path: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let first = 0;
    let firstChunkBytes = 0;
    let head = "";
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(socket) {
          socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
        },
        data(_socket, chunk) {
          if (!first) {
            first = performance.now();
            firstChunkBytes = chunk.byteLength;
          }
          if (head.length < 16) head += chunk.subarray(0, 16).toString();
        },
        close() {
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
          resolve({ ttfbMs: first - start, totalMs: performance.now() - start, status, firstChunkBytes });
        },
        error(_socket, error) {
          reject(error);
        },
      },
    }).catch(reject);
  });
}
