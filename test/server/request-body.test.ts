// request-body.ts: the admission's slots and each client's share of them, who a share belongs to, and the
// deadline of a body read.
import { describe, expect, test } from "bun:test";
import { BodyTimeout, CLIENT_WAIT_MS, clientKey, createAdmission, readBody } from "../../src/server/writes/request-body.ts";

describe("createAdmission", () => {
  test("a client holds at most its share; another client still gets a slot, and a freed one is taken again", async () => {
    const admission = createAdmission(16, 2);
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
    const admission = createAdmission(16, 2);
    const read = (i: number) => admission.run("198.51.100.9", () => Bun.sleep(10).then(() => i));
    expect(await Promise.all([0, 1, 2, 3].map(read))).toEqual([0, 1, 2, 3]);
  });

  test("no more than a share's worth waits: the rest is refused at once", async () => {
    const admission = createAdmission(16, 2);
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
    const admission = createAdmission(16, 2);
    const release = Promise.withResolvers<void>();
    const asked: string[] = [];
    const client = (address: string) => () => (asked.push(address), address);
    const held = [admission.run(client("198.51.100.7"), () => release.promise), admission.run(client("198.51.100.7"), () => release.promise)];
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

  test("past capacity no one gets a slot, whatever their share", async () => {
    const admission = createAdmission(2, 2);
    const release = Promise.withResolvers<void>();
    const held = [admission.run("a", () => release.promise), admission.run("b", () => release.promise)];
    expect(await admission.run("c", async () => "c")).toBeUndefined();
    release.resolve();
    await Promise.all(held);
  });
});

describe("clientKey", () => {
  test("an IPv6 address counts by its /64, however it is written; IPv4 and mapped IPv4 by the address", () => {
    expect(clientKey("2001:db8:0:0:1::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("2001:0DB8::ffff:1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey("192.0.2.1")).toBe("192.0.2.1");
    expect(clientKey(undefined)).toBe("");
  });
});

describe("readBody's deadline", () => {
  test("a body still arriving at the deadline is a BodyTimeout, and the rest is cancelled unread", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new Uint8Array(3)), cancel: () => void (cancelled = true) });
    const started = performance.now();
    const read = readBody(new Request("http://localhost/", { method: "POST", body: stream }), 1024, 100);
    await expect(read).rejects.toBeInstanceOf(BodyTimeout);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(cancelled).toBe(true);
  });

  test("a body that arrives in time is read whole", async () => {
    const bytes = await readBody(new Request("http://localhost/", { method: "POST", body: "text=x" }), 1024, 1_000);
    expect(new TextDecoder().decode(bytes)).toBe("text=x");
  });
});
