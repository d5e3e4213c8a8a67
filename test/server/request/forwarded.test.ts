// forwarded.test.ts: the visitor's address is the socket's, or behind TRUST_PROXY the X-Forwarded-For entry the
// nearest trusted proxy appended, never one the visitor wrote; and the key a visitor's share is counted by.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { clientKey, visitorAddress } from "../../../src/server/request/forwarded.ts";

const forwarded = (...values: string[]) => {
  const headers = new Headers();
  for (const value of values) headers.append("x-forwarded-for", value);
  return new Request("http://localhost/", { headers });
};

describe("visitorAddress", () => {
  // A real socket, whose address stands when X-Forwarded-For does not count or says nothing usable.
  let server: Server<unknown>;
  beforeAll(() => {
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
  });
  afterAll(() => server.stop(true));

  /** The address `visitorAddress` gives a request over the socket with these headers. */
  async function overSocket(headers: Record<string, string>, hops: number): Promise<string | undefined> {
    const { promise, resolve } = Promise.withResolvers<string | undefined>();
    server.reload({ fetch: (request, s) => (resolve(visitorAddress(request, s, hops)), new Response("ok")) });
    await (await fetch(`http://127.0.0.1:${server.port}/`, { headers })).text();
    return promise;
  }

  test("without TRUST_PROXY it is the socket's, whatever X-Forwarded-For says", async () => {
    expect(await overSocket({ "x-forwarded-for": "203.0.113.7" }, 0)).toBe("127.0.0.1");
  });

  test("behind one proxy it is the entry that proxy appended, however the visitor's own entries change", () => {
    for (const written of ["10.0.0.1", "198.51.100.4, 10.9.8.7", "not-an-ip"]) {
      expect(visitorAddress(forwarded(`${written}, 203.0.113.66`), null, 1)).toBe("203.0.113.66");
    }
  });

  test("behind two proxies it is the entry the outer one appended; with fewer entries than proxies, the leftmost", () => {
    expect(visitorAddress(forwarded("10.0.0.1, 203.0.113.66, 192.0.2.10"), null, 2)).toBe("203.0.113.66");
    expect(visitorAddress(forwarded("203.0.113.66"), null, 2)).toBe("203.0.113.66");
  });

  test("a header sent twice counts as one list, the second after the first", () => {
    expect(visitorAddress(forwarded("10.0.0.1", "203.0.113.66"), null, 1)).toBe("203.0.113.66");
  });

  test("an entry with a port, or an IPv6 one in brackets, is its address", () => {
    expect(visitorAddress(forwarded("203.0.113.66:51234"), null, 1)).toBe("203.0.113.66");
    expect(visitorAddress(forwarded("[2001:db8::1]:443"), null, 1)).toBe("2001:db8::1");
    expect(visitorAddress(forwarded(" 2001:db8::2 "), null, 1)).toBe("2001:db8::2");
  });

  test("an entry that is no address, or no header, leaves the socket's: the proxy's", async () => {
    expect(await overSocket({ "x-forwarded-for": "203.0.113.7, unknown" }, 1)).toBe("127.0.0.1");
    expect(await overSocket({}, 1)).toBe("127.0.0.1");
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
