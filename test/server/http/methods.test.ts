// methods.test.ts: what each request method meets over a real socket. Every method Bun passes to JavaScript gets
// a status and a log line; the ones it does not are a known issue (docs/reference/http.md, "What Bun does
// first"), asserted here so that this file fails once a Bun upgrade changes them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listenApp, logFor, type ListeningApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";
import { rawExchange, type RawResponse } from "../../support/raw-http.ts";

let server: ListeningApp;
beforeAll(async () => {
  server = await listenApp(FIXTURE);
});
afterAll(() => server.stop());

/** The methods Bun 1.4.4's HTTP layer (uWebSockets' HttpContext) routes to `fetch`, exactly so spelled. */
const ROUTED = [
  "ACL",
  "BIND",
  "CHECKOUT",
  "CONNECT",
  "COPY",
  "DELETE",
  "GET",
  "HEAD",
  "LINK",
  "LOCK",
  "M-SEARCH",
  "MERGE",
  "MKACTIVITY",
  "MKCALENDAR",
  "MKCOL",
  "MOVE",
  "NOTIFY",
  "OPTIONS",
  "PATCH",
  "POST",
  "PROPFIND",
  "PROPPATCH",
  "PURGE",
  "PUT",
  "QUERY",
  "REBIND",
  "REPORT",
  "SEARCH",
  "SOURCE",
  "SUBSCRIBE",
  "TRACE",
  "UNBIND",
  "UNLINK",
  "UNLOCK",
  "UNSUBSCRIBE",
];

/** A page, one with an action, routes without a page (loader-only, action-only), page data, the API, the tunnel, assets, nothing. */
const PATHS = [
  "/",
  "/form",
  "/feed.xml",
  "/shop/items/1/like",
  "/__data/",
  "/api/notes",
  "/monitoring",
  "/assets/missing.js",
  "/no/such/page",
];

const exchange = (method: string, path: string): Promise<RawResponse> =>
  rawExchange(server.port, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);

/** The log line of a raw answer, found by its X-Request-Id as logFor finds a fetched one's. */
const logOf = (res: RawResponse) => logFor(server.logs, new Response(null, { headers: res.headers }));

describe("every method Bun passes on", () => {
  test.each(PATHS)("%s: a status line and one log line, for each of Bun's 35 methods", async (path) => {
    for (const method of ROUTED) {
      const res = await exchange(method, path);
      expect({ method, answered: res.status !== undefined && res.status < 500 }).toEqual({ method, answered: true });
      expect(await logOf(res)).toMatchObject({ method, status: res.status });
      // A method the path does not take is refused with what it does take.
      if (res.status === 405)
        expect({ method, allow: res.headers.allow }).toEqual({
          method,
          allow: expect.stringMatching(/^[A-Z]+(, [A-Z]+)*$/),
        });
    }
  });
});

describe("known issue: methods Bun does not pass on", () => {
  /** Sends each, then a request that does reach JavaScript: once its line is written, no earlier one is coming. */
  async function unlogged(methods: string[]): Promise<RawResponse[]> {
    const before = server.logs.length;
    const answers = [];
    for (const method of methods) answers.push(await exchange(method, "/"));
    const marker = await exchange("GET", "/healthz");
    await logOf(marker);
    expect(server.logs.slice(before).map((l) => l.path)).toEqual(["/healthz"]);
    return answers;
  }

  test("a method of letters and '-' that Bun does not route (FOO, lower-case get) is a closed connection: no byte, no log line", async () => {
    const answers = await unlogged(["FOO", "BREW", "get", "Get", "post", "PRI", "X-FOO"]);
    for (const res of answers)
      expect({ closed: res.closed, bytes: res.body.byteLength, status: res.status }).toEqual({
        closed: true,
        bytes: 0,
        status: undefined,
      });
  });

  test("a method with any other character (FOO_BAR, FOO1) is Bun's own 400, never logged", async () => {
    const answers = await unlogged(["FOO_BAR", "FOO1", "GET/"]);
    expect(answers.map((res) => res.status)).toEqual([400, 400, 400]);
  });
});
