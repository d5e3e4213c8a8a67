// host-check.test.ts: requests whose Host gives no URL to route by are refused with 400, over a real socket,
// and logged with the path they asked for: routing and logs never depend on the Host's length. And which
// Host names the development server (a DNS-rebinding page's own name does not).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { isDevServerHost, isLoopbackHost } from "../../../src/server/http/host-check.ts";
import type { LogRecord } from "../../../src/server/monitoring/logger.ts";
import { listenApp, logFor, type ListeningApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";
import { linesBefore } from "../../support/log-lines.ts";
import { rawExchange, type RawResponse } from "../../support/raw-http.ts";

let server: ListeningApp;
let port: number;
let entry: string;
beforeAll(async () => {
  server = await listenApp(FIXTURE);
  port = server.port;
  const home = await fetch(`${server.origin}/`);
  entry = /"(\/assets\/entry-client-[^"]+\.js)"/.exec(await home.text())![1]!;
  // Its line is written once the page has ended: the tests count the lines that come after it.
  await logFor(server.logs, home);
});
afterAll(() => server.stop());

function request(head: string): Promise<RawResponse> {
  return rawExchange(port, `${head}\r\nConnection: close\r\n\r\n`);
}

/** The one log line written since `before` lines. */
async function lineAfter(before: number): Promise<LogRecord> {
  const lines = await linesBefore(server, before);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

async function refused(head: string, reason: string, path: string): Promise<void> {
  const before = server.logs.length;
  const res = await request(head);
  expect({ head, status: res.status, body: new TextDecoder().decode(res.body) }).toEqual({
    head,
    status: 400,
    body: `${reason}\n`,
  });
  expect(await lineAfter(before)).toMatchObject({ level: "info", status: 400, path });
}

describe("a Host of 1 to 3 characters", () => {
  const tooShort = "Host header too short (at least 4 characters)";

  test("is refused instead of routed on a path Elysia misreads", async () => {
    await refused("GET /ab/healthz HTTP/1.1\r\nHost: x", tooShort, "/ab/healthz");
    await refused(`GET /xx${entry} HTTP/1.1\r\nHost: x`, tooShort, `/xx${entry}`);
    await refused("POST /monitoring HTTP/1.1\r\nHost: ab\r\nContent-Length: 0", tooShort, "/monitoring");
    await refused("GET /server-error HTTP/1.1\r\nHost: abc", tooShort, "/server-error");
  });

  test("a four-character Host routes and logs its real path", async () => {
    const before = server.logs.length;
    const res = await request("GET /server-error?x=1 HTTP/1.1\r\nHost: abcd");
    expect(res.status).toBe(500);
    expect(await lineAfter(before)).toMatchObject({ status: 500, path: "/server-error", route: "/server-error" });
  });
});

describe("a Host Bun could not make a URL of", () => {
  test("two Host headers: 400", async () => {
    await refused(
      "GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: evil.example",
      "more than one Host header",
      "/healthz",
    );
  });

  test("no Host (HTTP/1.0) or one that is not a host: 400, logged with the path asked for", async () => {
    await refused("GET /server-error HTTP/1.0", "missing or invalid Host header", "/server-error");
    await refused("GET /healthz?x=1 HTTP/1.1\r\nHost: a b", "missing or invalid Host header", "/healthz");
    await refused("GET /search HTTP/1.1\r\nHost: a/b", "missing or invalid Host header", "/search");
  });

  test("an API write is refused before any byte of its body is waited for", async () => {
    // The body is announced and never sent: an answer at all means nothing read it first.
    const head =
      "POST /api/notes HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: 1000";
    await refused(head, "more than one Host header", "/api/notes");
  });
});

describe("isDevServerHost", () => {
  test.each([
    ["localhost:3000", "127.0.0.1"],
    ["LOCALHOST:3000", "127.0.0.1"],
    ["app.localhost:3000", "127.0.0.1"],
    ["127.0.0.1:3000", "127.0.0.1"],
    ["[::1]:3000", "127.0.0.1"],
    ["192.168.1.20:3000", "0.0.0.0"],
    ["devbox.lan:3000", "devbox.lan"],
  ])("%p names the server listening on %p", (host, listening) => {
    expect(isDevServerHost(host, listening)).toBe(true);
  });

  test.each([
    ["evil.example:3000", "127.0.0.1"],
    ["localhost.evil.example:3000", "127.0.0.1"],
    ["localhost@evil.example", "127.0.0.1"],
    ["127.0.0.1.nip.io:3000", "127.0.0.1"],
    ["evil.example", "0.0.0.0"],
    ["", "127.0.0.1"],
    [null, "127.0.0.1"],
  ])("%p does not (DNS rebinding): refused", (host, listening) => {
    expect(isDevServerHost(host, listening)).toBe(false);
  });
});

test("isLoopbackHost: what keeps the development server on this machine", () => {
  expect(["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"].map(isLoopbackHost)).toEqual([
    true,
    true,
    true,
    true,
    true,
  ]);
  expect(["0.0.0.0", "::", "192.168.1.20", "devbox.lan"].map(isLoopbackHost)).toEqual([false, false, false, false]);
});
