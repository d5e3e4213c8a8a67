// request-body.ts: reads a request body within a byte limit and a pace, after its admission (admission.ts),
// so the memory and time request bodies take stay bounded.
//
// An endpoint that reads bodies gets an Admission with `capacity` slots and reads each body with a `limit`:
//
//   const response = await admission.run(client, async (slot) => {
//     const body = await readBody(request, limit, pace, slot);   // undefined past the limit: 413; BodyTimeout
//     return use(body);                                           // when it falls behind its pace: 408 and
//   });                                                           // slot.fellBehind(), or yields its slot: 408
//   return response ?? tooBusy();          // every slot, or every one `client` may hold, taken: 429, the body untouched
//
// The bodies it holds then take at most `capacity × limit` bytes (plus, per body being read, the one
// network chunk that crosses the limit), however many uploads arrive at once: a request refused for want
// of a slot is answered before its body is read, and a body over its limit is cancelled as soon as the
// count passes it. No one client holds more than its share of the slots, and a slot is held only while its
// body keeps its pace: a minimum rate from the end of a short grace on, and a deadline. A body that falls
// behind is cut there, and its client then holds one slot at a time for a while (SLOW_CLIENT_MS), so a few
// clients that send headers and then stall, reconnecting whenever they are closed, cannot keep everyone
// else's uploads out. Nor can a few that keep the pace with bodies sized to take until the deadline: once
// every slot is taken, the body with the longest still to go yields its slot to a post that asks, with a
// 408, and its client too then holds one slot at a time.

import type { WritesConfig } from "../config/config.ts";
import type { Bytes } from "../request/responses.ts";

/**
 * Headers of the 408 for a body that fell behind its pace. The rest of the body will never be read, so the connection
 * cannot carry another request: closing it (RFC 9110 15.5.9) also stops a client that trickles bytes into it.
 */
export const BODY_TIMEOUT_HEADERS: Readonly<Record<string, string>> = { connection: "close" };

/** The body did not arrive within its deadline, fell behind its pace, or yielded its slot: 408. */
export class BodyTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BodyTimeout";
  }
}

/** How fast a request body must arrive: BODY_TIMEOUT_MS, BODY_MIN_RATE and BODY_RATE_GRACE_MS. */
export interface BodyPace {
  /** The whole body within this many ms of the read's start. */
  readonly timeoutMs: number;
  /**
   * From `graceMs` on, at least this many bytes a second on average since the read began, or the whole body
   * when it is smaller than that; 0: the deadline alone.
   */
  readonly minRate: number;
  readonly graceMs: number;
}

/** The pace BODY_TIMEOUT_MS, BODY_MIN_RATE and BODY_RATE_GRACE_MS set. */
export function bodyPaceOf(config: Pick<WritesConfig, "bodyTimeoutMs" | "bodyMinRate" | "bodyRateGraceMs">): BodyPace {
  return { timeoutMs: config.bodyTimeoutMs, minRate: config.bodyMinRate, graceMs: config.bodyRateGraceMs };
}

/** A body being read, as the slot it holds sees it (admission.ts). */
export interface ReadingBody {
  /** The bytes it is to have: its Content-Length, or the limit. */
  readonly expected: number;
  /** Those that have arrived; a body read in one go counts none until it is whole. */
  readonly received: number;
}

/** Told of a body read from its start until it settles: the slot it holds (admission.ts). */
export interface BodyWatch {
  /** The read has started; `cut` ends it at once, a BodyTimeout saying `message`, the rest unread. */
  reading(body: ReadingBody, cut: (message: string) => void): void;
  /** The read has settled: the body is whole, refused, failed or cut. */
  done(): void;
}

/**
 * The whole body, or undefined once it passes `limit` bytes (the rest is then cancelled unread). Throws when
 * the stream fails (a visitor who went away mid-upload), and BodyTimeout when a request's body falls behind
 * `pace` or `watch` cuts it (the rest is then cancelled unread too).
 *
 * A request's Content-Length is trusted to refuse early, and to read in one go a body the pace wants whole by
 * the end of its grace (a form post, a JSON write, an envelope: the one check it needs is that deadline);
 * from a socket, Bun's parser frames the body by it. A larger one is counted chunk by chunk, to see how far
 * it has got. A fetch response's Content-Length counts the bytes before decoding (a few KB of brotli can
 * inflate to a gigabyte), so a response is always counted chunk by chunk, after decoding.
 */
export async function readBody(
  message: Request | Response,
  limit: number,
  pace?: BodyPace,
  watch?: BodyWatch,
): Promise<Bytes | undefined> {
  const declared = message.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) return undefined;
  // The bytes the pace waits for: all there are, or the limit (for a Content-Length that is no number too,
  // which only an in-process Request can have).
  const length = Number(declared ?? limit);
  const progress = { expected: length >= 0 ? length : limit, received: 0 };
  if (message instanceof Request && declared !== null && (!pace || wholeByGrace(pace, progress.expected))) {
    // Once the response has gone out, Bun closes a connection whose body is unread, and this read ends with it.
    const deadline = pace && oneGoDeadline(pace, progress.expected);
    const bytes = await guarded(message.bytes(), progress, deadline && deadlineClock(deadline), watch);
    // An in-process Request (app.handle) can carry a Content-Length its body does not keep to.
    return bytes.byteLength > limit ? undefined : bytes;
  }
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  const read = readChunks(reader, limit, progress);
  const expire = () => void reader.cancel().catch(() => {});
  if (!pace) return guarded(read, progress, undefined, watch, expire);
  const clock =
    pace.minRate === 0
      ? deadlineClock({ ms: pace.timeoutMs, message: pastDeadline(pace.timeoutMs) })
      : paceClock(pace, progress);
  return guarded(read, progress, clock, watch, expire);
}

const pastDeadline = (timeoutMs: number) => `the body did not arrive within ${timeoutMs} ms`;

/** Whether the pace wants all `expected` bytes by the end of its grace (or its deadline, if that is sooner). */
function wholeByGrace({ minRate, graceMs, timeoutMs }: BodyPace, expected: number): boolean {
  return minRate === 0 || expected <= (minRate * Math.min(graceMs, timeoutMs)) / 1000;
}

/** The deadline of a body read in one go, and why it would be missed. */
function oneGoDeadline({ minRate, graceMs, timeoutMs }: BodyPace, expected: number): { ms: number; message: string } {
  if (minRate === 0 || timeoutMs <= graceMs) return { ms: timeoutMs, message: pastDeadline(timeoutMs) };
  return { ms: graceMs, message: `the body arrived too slowly: not all of its ${expected} bytes within ${graceMs} ms` };
}

async function readChunks(
  reader: ReadableStreamDefaultReader<Bytes>,
  limit: number,
  progress: { received: number },
): Promise<Bytes | undefined> {
  const chunks: Bytes[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    progress.received += value.byteLength;
    if (progress.received > limit) {
      reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(progress.received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Why a read fails, as its clock or its watch decides. */
type Fail = (message: string) => void;

/** Starts a read's timers, which call `fail` once its body is late; returns what stops them. */
type BodyClock = (fail: Fail) => () => void;

/**
 * `read`, or a BodyTimeout (after `expire`) as soon as `clock` or `watch` fails it; `watch` is told of the read
 * from here until it settles.
 */
function guarded<T>(
  read: Promise<T>,
  body: ReadingBody,
  clock: BodyClock | undefined,
  watch: BodyWatch | undefined,
  expire?: () => void,
): Promise<T> {
  if (!clock && !watch) return read;
  return new Promise<T>((resolve, reject) => {
    let stop: (() => void) | undefined;
    // Run in each callback: a `finally` would make two more promises per body.
    const end = () => {
      stop?.();
      watch?.done();
    };
    const fail = (message: string) => {
      end();
      expire?.();
      reject(new BodyTimeout(message));
    };
    stop = clock?.(fail);
    watch?.reading(body, fail);
    read.then(
      (value) => (end(), resolve(value)),
      (error: unknown) => (end(), reject(error)),
    );
  });
}

/** Fails a read that has not settled within `deadline.ms`. */
function deadlineClock(deadline: { ms: number; message: string }): BodyClock {
  return (fail) => {
    const timer = setTimeout(() => fail(deadline.message), deadline.ms);
    return () => clearTimeout(timer);
  };
}

/**
 * Fails a read as soon as its body falls behind `pace`: checked when the grace ends, then each time the bytes
 * that have arrived would stop being enough, so a steady upload is looked at a handful of times and a stalled
 * one is cut the moment it falls behind.
 */
function paceClock(pace: BodyPace, body: ReadingBody): BodyClock {
  return (fail) => {
    const started = performance.now();
    const check = () => {
      const elapsed = performance.now() - started;
      if (elapsed >= pace.timeoutMs) return fail(pastDeadline(pace.timeoutMs));
      const due = Math.min(body.expected, (pace.minRate * elapsed) / 1000);
      if (body.received < due) {
        return fail(
          `the body arrived too slowly: ${body.received} of ${body.expected} bytes after ${Math.round(elapsed)} ms, ` +
            `under ${pace.minRate} bytes a second`,
        );
      }
      // What has arrived covers the pace until then (never sooner than a moment from now).
      const covered = (body.received / pace.minRate) * 1000;
      timer = setTimeout(check, Math.min(pace.timeoutMs, Math.max(covered, elapsed + MIN_CHECK_STEP_MS)) - elapsed);
    };
    let timer = setTimeout(check, Math.min(pace.graceMs, pace.timeoutMs));
    return () => clearTimeout(timer);
  };
}

/** The least time between two checks of one body's pace: a body just keeping up is not looked at on every tick. */
const MIN_CHECK_STEP_MS = 100;
