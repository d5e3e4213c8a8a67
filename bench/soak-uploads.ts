// soak-uploads.ts: the soak's upload flood: many raw sockets, each posting a ~1 MiB envelope to the tunnel in
// two parts (headers and 1 KB, a pause, then the rest), over and over, while the upstream answers slowly.
// Every body is mid-upload at once, which is what makes a tunnel buffer bodies it will refuse. It runs on a
// worker thread: the fake ingest on the main thread must answer on time while the sockets push ~300 MiB.

export interface UploadFloodOptions {
  port: number;
  /** The configured DSN, as a browser SDK writes it in the envelope header. */
  dsn: string;
  sockets: number;
  /** How long sockets keep starting uploads. */
  seconds: number;
  /** Envelope size; at most MONITORING_MAX_BYTES, so that it is admitted on its size. */
  bytes: number;
  /** Between the first 1 KB and the rest. */
  pauseMs: number;
}

export interface UploadFloodResult {
  /** Status (or `error: <what>`) → count. */
  statuses: Map<string, number>;
  /** event_id of every upload the tunnel answered 2xx for: each must reach the ingest. */
  accepted: Set<string>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One envelope of `bytes`: header with the event id and DSN, then an attachment of filler. */
function envelope(dsn: string, eventId: string, filler: Uint8Array, bytes: number): Uint8Array {
  const header = encoder.encode(`${JSON.stringify({ event_id: eventId, dsn })}\n`);
  const itemLength = bytes - header.byteLength - 64;
  const item = encoder.encode(`${JSON.stringify({ type: "attachment", length: itemLength, filename: "dump.bin" })}\n`.padEnd(64));
  const out = new Uint8Array(header.byteLength + item.byteLength + itemLength);
  out.set(header);
  out.set(item, header.byteLength);
  out.set(filler.subarray(0, itemLength), header.byteLength + item.byteLength);
  return out;
}

/** Posts one upload on a fresh connection; resolves with the status line's code, or why there was none. */
async function upload(options: UploadFloodOptions, body: Uint8Array): Promise<string> {
  const head = encoder.encode(
    `POST /monitoring HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\nOrigin: http://127.0.0.1:${options.port}\r\n` +
      `Content-Type: text/plain;charset=UTF-8\r\nContent-Length: ${body.byteLength}\r\nConnection: close\r\n\r\n`,
  );
  let received = "";
  let pending: Uint8Array = new Uint8Array(0);
  let drained: (() => void) | undefined;
  const { promise: ended, resolve: end } = Promise.withResolvers<string>();
  const statusOf = () => /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port: options.port,
    socket: {
      data(s, chunk) {
        received += decoder.decode(chunk);
        // The answer is all we came for: a refusal may come before the body has gone out.
        if (statusOf()) s.end();
      },
      drain(s) {
        pending = pending.subarray(Math.max(0, s.write(pending)));
        if (!pending.byteLength) drained?.();
      },
      close: () => end(statusOf() ?? "error: closed"),
      error: (_, error) => end(statusOf() ?? `error: ${error.name}`),
    },
  }).catch((error: Error) => {
    end(`error: ${error.name}`);
    return undefined;
  });
  if (!socket) return ended;
  const send = (bytes: Uint8Array) => {
    const written = socket.write(bytes);
    pending = bytes.subarray(Math.max(0, written));
    if (!pending.byteLength) return Promise.resolve();
    return new Promise<void>((resolve) => (drained = resolve));
  };
  const split = 1024;
  await Promise.race([send(head).then(() => send(body.subarray(0, split))), ended]);
  await Promise.race([Bun.sleep(options.pauseMs), ended]);
  await Promise.race([send(body.subarray(split)), ended]);
  return ended;
}

async function flood(options: UploadFloodOptions): Promise<UploadFloodResult> {
  const result: UploadFloodResult = { statuses: new Map(), accepted: new Set() };
  const filler = new Uint8Array(options.bytes).fill(0x61);
  const until = performance.now() + options.seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) {
      const id = crypto.randomUUID().replaceAll("-", "");
      const status = await upload(options, envelope(options.dsn, id, filler, options.bytes));
      result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      if (status.startsWith("2")) result.accepted.add(id);
    }
  };
  await Promise.all(Array.from({ length: options.sockets }, loop));
  return result;
}

if (!Bun.isMainThread) {
  self.onmessage = async (event: MessageEvent<UploadFloodOptions>) => {
    const { statuses, accepted } = await flood(event.data);
    postMessage({ statuses: [...statuses], accepted: [...accepted] });
  };
}

/** Runs the flood on a worker thread; resolves once every socket has had its answer. */
export function uploadFlood(options: UploadFloodOptions): Promise<UploadFloodResult> {
  const worker = new Worker(import.meta.url);
  const { promise, resolve } = Promise.withResolvers<UploadFloodResult>();
  worker.onmessage = (event: MessageEvent<{ statuses: Array<[string, number]>; accepted: string[] }>) => {
    worker.terminate();
    resolve({ statuses: new Map(event.data.statuses), accepted: new Set(event.data.accepted) });
  };
  worker.postMessage(options);
  return promise;
}
