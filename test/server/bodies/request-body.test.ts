// admission.ts and request-body.ts: the admission's slots and each client's share of them, a slow client's
// single slot, and the pace of a body read.
import { describe, expect, test } from "bun:test";
import {
  CLIENT_WAIT_MS,
  SLOW_CLIENT_MS,
  YIELD_AFTER_MS,
  createAdmission,
  type Admission,
} from "../../../src/server/bodies/admission.ts";
import { BodyTimeout, readBody } from "../../../src/server/bodies/request-body.ts";

describe("createAdmission", () => {
  test("a client holds at most its share; another client still gets a slot, and a freed one is taken again", async () => {
    const admission = createAdmission(16, { perClient: 2 });
    const release = Promise.withResolvers<void>();
    const hold = (client: string) => admission.run(client, () => release.promise.then(() => client));
    const held = [hold("198.51.100.7"), hold("198.51.100.7")];
    const started = performance.now();
    expect(await admission.run("198.51.100.7", async () => "third")).toBeUndefined();
    // Refused once it has waited its turn in vain.
    expect(performance.now() - started).toBeGreaterThanOrEqual(CLIENT_WAIT_MS - 5);
    expect(await admission.run("2001:db8::1", async () => "other")).toBe("other");
    release.resolve();
    expect(await Promise.all(held)).toEqual(["198.51.100.7", "198.51.100.7"]);
    expect(await admission.run("198.51.100.7", async () => "again")).toBe("again");
  });

  test("a burst from one client past its share waits for its own slots instead of being refused", async () => {
    const admission = createAdmission(16, { perClient: 2 });
    const read = (i: number) => admission.run("198.51.100.9", () => Bun.sleep(10).then(() => i));
    expect(await Promise.all([0, 1, 2, 3].map(read))).toEqual([0, 1, 2, 3]);
  });

  test("no more than a share's worth waits: the rest is refused at once", async () => {
    const admission = createAdmission(16, { perClient: 2 });
    const release = Promise.withResolvers<void>();
    const held = [0, 1].map(() => admission.run("a", () => release.promise));
    const queued = [0, 1].map(() => admission.run("a", async () => "queued"));
    const started = performance.now();
    expect(await admission.run("a", async () => "fifth")).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(CLIENT_WAIT_MS / 2);
    release.resolve();
    await Promise.all(held);
    expect(await Promise.all(queued)).toEqual(["queued", "queued"]);
  });

  test("a client found by a function is asked only once a share could be full; then every slot taken counts against its own", async () => {
    const admission = createAdmission(16, { perClient: 2 });
    const release = Promise.withResolvers<void>();
    const asked: string[] = [];
    const client = (address: string) => () => (asked.push(address), address);
    const held = [
      admission.run(client("198.51.100.7"), () => release.promise),
      admission.run(client("198.51.100.7"), () => release.promise),
    ];
    expect(asked).toEqual([]);
    expect(await admission.run(client("198.51.100.7"), async () => "third")).toBeUndefined();
    expect(asked).toEqual(["198.51.100.7", "198.51.100.7", "198.51.100.7"]);
    expect(await admission.run(client("2001:db8::1"), async () => "other")).toBe("other");
    release.resolve();
    await Promise.all(held);
    asked.length = 0;
    expect(await admission.run(client("198.51.100.7"), async () => "again")).toBe("again");
    expect(asked).toEqual([]);
  });

  test("a client whose body fell behind its pace holds one slot at a time for SLOW_CLIENT_MS; others keep their share", async () => {
    let clock = 0;
    const admission = createAdmission(16, { perClient: 4, now: () => clock });
    const release = Promise.withResolvers<void>();
    const hold = (client: string) => admission.run(client, () => release.promise.then(() => client));
    expect(await admission.run("198.51.100.7", async (slot) => (slot.fellBehind(), "cut"))).toBe("cut");
    // A share's worth of another client's, so that shares count from here on.
    const held = [0, 1, 2, 3].map(() => hold("203.0.113.1"));
    held.push(hold("198.51.100.7"));
    expect(await admission.run("198.51.100.7", async () => "second")).toBeUndefined();
    expect(await admission.run("2001:db8::1", async () => "other")).toBe("other");
    clock += SLOW_CLIENT_MS;
    expect(await admission.run("198.51.100.7", async () => "a minute later")).toBe("a minute later");
    release.resolve();
    await Promise.all(held);
  });

  test("past capacity no one gets a slot, whatever their share", async () => {
    const admission = createAdmission(2, { perClient: 2 });
    const release = Promise.withResolvers<void>();
    const held = [admission.run("a", () => release.promise), admission.run("b", () => release.promise)];
    expect(await admission.run("c", async () => "c")).toBeUndefined();
    release.resolve();
    await Promise.all(held);
  });
});

describe("a full pool takes a slot back (red team N2)", () => {
  /** A pace no body here falls behind: each is counted as it arrives (not read in one go) and only its slot can cut it. */
  const UNHURRIED = { timeoutMs: 600_000, minRate: 1, graceMs: 60_000 };

  /** A read of `post`'s body holding one of `admission`'s slots: its length, or what it failed with. */
  const readIn = (admission: Admission, client: string, post: { request: Request }) =>
    admission.run(client, (slot) =>
      readBody(post.request, 1_000_000, UNHURRIED, slot).then(
        (b) => `${client}: ${b?.byteLength} bytes`,
        (e: Error) => e,
      ),
    );

  /** A pool of 2 slots, one per client, on a clock of the test's own. */
  function pool() {
    let clock = 0;
    const admission = createAdmission(2, { perClient: 1, now: () => clock });
    return {
      admission,
      read: (client: string, post: { request: Request }) => readIn(admission, client, post),
      pass: (ms: number) => (clock += ms),
    };
  }

  test("once every slot is taken, a post takes the slot of the body with the longest still to go, which is cut with a 408's BodyTimeout", async () => {
    const { admission, read, pass } = pool();
    // Both keep coming, 1 KB every 5 ms: one has 98 KB of 100 KB still to come, the other 50 of 60 KB. The
    // nearer one took its slot first: the choice is by what is left, not by order.
    const near = slowPost({ first: 10_000, step: 1_000, everyMs: 5, total: 60_000, declared: 60_000 });
    const far = slowPost({ first: 2_000, step: 1_000, everyMs: 5, total: 100_000, declared: 100_000 });
    const reads = [read("198.51.100.2", near), read("198.51.100.1", far)];
    await Promise.all([near.counted, far.counted]);
    pass(YIELD_AFTER_MS);
    expect(await admission.run("203.0.113.9", async () => "the visitor's post")).toBe("the visitor's post");
    const cut = await reads[1];
    expect(cut).toBeInstanceOf(BodyTimeout);
    expect((cut as BodyTimeout).message).toMatch(
      /^the body yielded its slot to another post: every slot was taken, and it had sent \d+ of 100000 bytes in 1000 ms$/,
    );
    expect(far.cancelled()).toBe(true);
    // The other read on to its end; the cut body's client holds one slot at a time now (one is free, it gets it).
    expect(await reads[0]).toBe("198.51.100.2: 60000 bytes");
    expect(near.cancelled()).toBe(false);
  });

  test("the yielding client holds one slot at a time for SLOW_CLIENT_MS, as after a body that fell behind", async () => {
    let clock = 0;
    const admission = createAdmission(4, { perClient: 2, now: () => clock });
    const release = Promise.withResolvers<void>();
    const hold = (client: string) => admission.run(client, () => release.promise.then(() => client));
    // A share's worth of another client's, held throughout, so that shares count.
    const others = [hold("203.0.113.1"), hold("203.0.113.1")];
    const stalled = slowPost({ first: 10, declared: 100_000 });
    const yielding = [readIn(admission, "198.51.100.1", stalled), hold("198.51.100.1")];
    clock += YIELD_AFTER_MS;
    const visitor = Promise.withResolvers<void>();
    const visit = admission.run("192.0.2.7", () => visitor.promise.then(() => "visitor"));
    expect(await yielding[0]).toBeInstanceOf(BodyTimeout);
    visitor.resolve();
    expect(await visit).toBe("visitor");
    // A slot is free, and the client's share was two: it holds one, so a second post is refused.
    expect(await admission.run("198.51.100.1", async () => "second")).toBeUndefined();
    clock += SLOW_CLIENT_MS;
    expect(await admission.run("198.51.100.1", async () => "a minute later")).toBe("a minute later");
    release.resolve();
    expect(await Promise.all([...others, yielding[1]])).toEqual(["203.0.113.1", "203.0.113.1", "198.51.100.1"]);
  });

  test("nothing yields before YIELD_AFTER_MS, nor work that is not reading a body, nor for a client whose share is full", async () => {
    const { admission, read, pass } = pool();
    const stalled = slowPost({ first: 10, declared: 100_000 });
    const release = Promise.withResolvers<void>();
    // One body that stalls, and work past its body (a tunnel waiting on Sentry).
    const reading = read("198.51.100.1", stalled);
    const working = admission.run("198.51.100.2", () => release.promise.then(() => "worked"));
    pass(YIELD_AFTER_MS - 1);
    expect(await admission.run("203.0.113.9", async () => "too soon")).toBeUndefined();
    pass(1);
    // The stalled body's own client has its one slot: it cannot take another's back.
    expect(await admission.run("198.51.100.1", async () => "its own")).toBeUndefined();
    expect(await admission.run("203.0.113.9", async () => "in time")).toBe("in time");
    expect(await reading).toBeInstanceOf(BodyTimeout);
    release.resolve();
    expect(await working).toBe("worked");
    expect(stalled.cancelled()).toBe(true);
  });
});

/**
 * A POST whose body sends `first` bytes at once, then `step` more every `everyMs` until it has sent `total`
 * (never, with `step` 0): a client on a slow link, or one that stalls. `counted` resolves once the reader has
 * taken the first bytes and asks for more.
 */
function slowPost({
  first,
  step = 0,
  everyMs = 20,
  total = Infinity,
  declared,
}: {
  first: number;
  step?: number;
  everyMs?: number;
  total?: number;
  declared?: number;
}) {
  let sent = 0;
  let cancelled = false;
  const counted = Promise.withResolvers<void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      sent = first;
      c.enqueue(new Uint8Array(first).fill(0x61));
    },
    pull(c) {
      counted.resolve();
      if (sent >= total) return c.close();
      if (step === 0) return new Promise<void>(() => {});
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          const size = Math.min(step, total - sent);
          sent += size;
          c.enqueue(new Uint8Array(size).fill(0x62));
          resolve();
        }, everyMs);
      });
    },
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  });
  const headers = declared === undefined ? undefined : { "content-length": String(declared) };
  return {
    request: new Request("http://localhost/", { method: "POST", body, headers }),
    cancelled: () => cancelled,
    counted: counted.promise,
  };
}

describe("readBody's pace", () => {
  test("without a minimum rate, a body still arriving at the deadline is a BodyTimeout, and the rest is cancelled unread", async () => {
    const post = slowPost({ first: 3 });
    const started = performance.now();
    const read = readBody(post.request, 1024, { timeoutMs: 100, minRate: 0, graceMs: 50 });
    await expect(read).rejects.toThrow("the body did not arrive within 100 ms");
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(post.cancelled()).toBe(true);
  });

  test("a body that stops after its first bytes is cut once the rate has passed them, long before its deadline", async () => {
    const post = slowPost({ first: 100 });
    const started = performance.now();
    const read = readBody(post.request, 100_000, { timeoutMs: 30_000, minRate: 1_000, graceMs: 50 });
    const error = await read.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BodyTimeout);
    expect((error as BodyTimeout).message).toMatch(
      /^the body arrived too slowly: 100 of 100000 bytes after \d+ ms, under 1000 bytes a second$/,
    );
    // 100 bytes cover the first 100 ms at 1000 bytes a second: it is cut just after, not at the deadline.
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThanOrEqual(95);
    expect(ms).toBeLessThan(3_000);
    expect(post.cancelled()).toBe(true);
  });

  test("an upload that pauses is read whole while its average since the start keeps the rate", async () => {
    // 500 bytes after each pause of 400 ms: 1,000 a second at the slowest, counted from the start.
    const post = slowPost({ first: 1_000, step: 500, everyMs: 400, total: 2_000 });
    const bytes = await readBody(post.request, 100_000, { timeoutMs: 10_000, minRate: 1_000, graceMs: 20 });
    expect(bytes?.byteLength).toBe(2_000);
  });

  test("a body whose Content-Length the rate wants whole by the end of the grace is read in one go, with that deadline", async () => {
    const post = slowPost({ first: 3, declared: 10 });
    const read = readBody(post.request, 1024, { timeoutMs: 30_000, minRate: 1_000, graceMs: 50 });
    await expect(read).rejects.toThrow("the body arrived too slowly: not all of its 10 bytes within 50 ms");
  });

  test("a body that arrives in time is read whole", async () => {
    const bytes = await readBody(new Request("http://localhost/", { method: "POST", body: "text=x" }), 1024, {
      timeoutMs: 1_000,
      minRate: 1_000,
      graceMs: 100,
    });
    expect(new TextDecoder().decode(bytes)).toBe("text=x");
  });
});
