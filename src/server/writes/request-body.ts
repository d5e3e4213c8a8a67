// request-body.ts: bounds the memory and time request bodies take: admission before a byte is read, a byte
// limit and a deadline while reading.
//
// An endpoint that reads bodies gets an Admission with `capacity` slots and reads each body with a `limit`:
//
//   const answer = await admission.run(client, async () => {
//     const body = await readBody(request, limit, timeoutMs);   // undefined past the limit: 413;
//     return use(body);                                          // BodyTimeout past the deadline: 408
//   });
//   return answer ?? tooBusy();            // every slot, or every one `client` may hold, taken: 429, the body untouched
//
// The bodies it holds then take at most `capacity × limit` bytes (plus, per body being read, the one
// network chunk that crosses the limit), however many uploads arrive at once: a request refused for want
// of a slot is answered before its body is read, and a body over its limit is cancelled as soon as the
// count passes it. A slot is held for at most the deadline while a body arrives, and no one client holds
// more than its share of the slots: a few clients that send headers and then stall (reconnecting whenever
// they are closed) cannot keep everyone else's uploads out.

export type Bytes = Uint8Array<ArrayBuffer>;

/**
 * Who a post comes from: the visitor's address (all requests without one, such as in-process ones, count as
 * one client), or a function that finds it, called only once the client's share could be full.
 */
export type Client = string | undefined | (() => string | undefined);

export interface Admission {
  /**
   * Runs `work` holding one slot, and one of `client`'s share, until it settles; undefined, without running
   * it, when every slot is taken, or the client's share is and stays taken for CLIENT_WAIT_MS.
   */
  run<T>(client: Client, work: () => Promise<T>): Promise<T | undefined>;
}

/** A client holds at most 1/CLIENT_SHARE of the slots: it takes this many clients to hold them all. */
export const CLIENT_SHARE = 8;

/**
 * How long a post waits for one of its client's own slots: a burst (a dozen likes at once) is read a few at a
 * time instead of refused, while a client whose share is held by stalled uploads is refused soon after.
 */
export const CLIENT_WAIT_MS = 250;

/** One slot taken; `key` is its client's once asked. */
interface Holder {
  readonly client: Client;
  key?: string;
}

const keyOf = (client: Client) => clientKey(typeof client === "function" ? client() : client);

export function createAdmission(capacity: number, perClient = Math.ceil(capacity / CLIENT_SHARE)): Admission {
  let inUse = 0;
  const byClient = new Map<string, number>();
  /**
   * Slots taken while fewer than a share's worth were in use: no share could be full then, so their clients
   * are asked (a socket address lookup each) only once more are.
   */
  const unkeyed = new Set<Holder>();
  /** Posts waiting for a slot of their client's share, each told whether it got one. */
  const waiting = new Map<string, Array<(granted: boolean) => void>>();

  function count(holder: Holder, key: string) {
    holder.key = key;
    byClient.set(key, (byClient.get(key) ?? 0) + 1);
  }

  /** A slot of `key`'s share as one is given back, or false after CLIENT_WAIT_MS (or with a share's worth already waiting). */
  function turn(key: string): Promise<boolean> {
    const queue = waiting.get(key) ?? [];
    if (queue.length >= perClient) return Promise.resolve(false);
    waiting.set(key, queue);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(grant), 1);
        if (queue.length === 0) waiting.delete(key);
        resolve(false);
      }, CLIENT_WAIT_MS);
      const grant = (granted: boolean) => (clearTimeout(timer), resolve(granted));
      queue.push(grant);
    });
  }

  /**
   * Takes a slot for `holder`: false, its client found, when that client's share is full (the post may
   * wait for a turn).
   */
  function admit(holder: Holder): boolean {
    if (inUse < perClient) {
      inUse++;
      unkeyed.add(holder);
      return true;
    }
    // A share may be full from here on: every slot taken counts against its client's.
    for (const early of unkeyed) count(early, keyOf(early.client));
    unkeyed.clear();
    const key = keyOf(holder.client);
    if ((byClient.get(key) ?? 0) >= perClient) {
      holder.key = key;
      return false;
    }
    inUse++;
    count(holder, key);
    return true;
  }

  function release(holder: Holder) {
    const key = holder.key;
    if (key === undefined) {
      unkeyed.delete(holder);
      inUse--;
      return;
    }
    const queue = waiting.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) waiting.delete(key);
    // The slot passes to the client's next waiting post as it is: the counts stay.
    if (next) return next(true);
    inUse--;
    const left = byClient.get(key)! - 1;
    if (left === 0) byClient.delete(key);
    else byClient.set(key, left);
  }

  return {
    async run(client, work) {
      if (inUse >= capacity) return undefined;
      const holder: Holder = { client };
      // A turn is a slot passed on by one of the client's own posts: the counts stay.
      if (!admit(holder) && !(await turn(holder.key!))) return undefined;
      try {
        return await work();
      } finally {
        release(holder);
      }
    },
  };
}

/**
 * Who a share belongs to: an IPv4 address, or an IPv6 address's /64, the block a single host or home is
 * given (one attacker could otherwise take a fresh address per connection). An IPv4-mapped IPv6 address is
 * its IPv4 address.
 */
export function clientKey(address: string | undefined): string {
  if (!address?.includes(":")) return address ?? "";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...front, ...Array<string>(8 - front.length - back.length).fill("0"), ...back] : front;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Headers of the 408 for a body past its deadline. The rest of the body will never be read, so the connection
 * cannot carry another request: closing it (RFC 9110 15.5.9) also stops a client that trickles bytes into it.
 */
export const BODY_TIMEOUT_HEADERS: Readonly<Record<string, string>> = { connection: "close" };

/** The body did not arrive within its deadline: 408. */
export class BodyTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the body did not arrive within ${timeoutMs} ms`);
    this.name = "BodyTimeout";
  }
}

/**
 * The whole body, or undefined once it passes `limit` bytes (the rest is then cancelled unread). Throws when
 * the stream fails (a visitor who went away mid-upload), and BodyTimeout when the body has not all arrived
 * `timeoutMs` after the call (the rest is then cancelled unread too).
 *
 * A request's Content-Length is trusted to refuse early and to read in one go: from a socket, Bun's parser
 * frames the body by it. A fetch response's Content-Length counts the bytes before decoding (a few KB of
 * brotli can inflate to a gigabyte), so a response is always counted chunk by chunk, after decoding.
 */
export async function readBody(message: Request | Response, limit: number, timeoutMs?: number): Promise<Bytes | undefined> {
  const declared = message.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return undefined;
  if (declared !== null && message instanceof Request) {
    // Once the answer has gone out, Bun closes a connection whose body is unread, and this read ends with it.
    const bytes = await beforeDeadline(message.bytes(), timeoutMs);
    // An in-process Request (app.handle) can carry a Content-Length its body does not keep to.
    return bytes.byteLength > limit ? undefined : bytes;
  }
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  return beforeDeadline(readChunks(reader, limit), timeoutMs, () => reader.cancel().catch(() => {}));
}

async function readChunks(reader: ReadableStreamDefaultReader<Bytes>, limit: number): Promise<Bytes | undefined> {
  const chunks: Bytes[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** `read`, or a BodyTimeout (after `expire`) when it has not settled within `timeoutMs`. */
function beforeDeadline<T>(read: Promise<T>, timeoutMs: number | undefined, expire?: () => void): Promise<T> {
  if (timeoutMs === undefined) return read;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      expire?.();
      reject(new BodyTimeout(timeoutMs));
    }, timeoutMs);
    // Cleared in each callback: a `finally` would make two more promises per body.
    read.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}
