// Property tests: any path and query, through app.handle and a real socket, gets an expected status,
// never a 5xx outside the error routes, never its input unescaped in HTML, and page data that parses.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { revive } from "../../../src/runtime/browser/codec.ts";
import { isResourceRoute, routeTree } from "../../../src/runtime/route-tree.ts";
import { PAGE_DATA_PREFIX } from "../../../src/runtime/page-payload.ts";
import { listenApp, type ListeningApp } from "brisk/test";
import { FIXTURE, loadApp } from "../../support/app.ts";
import { MARKER, fuzzParams, hostileString, tally } from "../../support/fuzz.ts";
import { rawExchange } from "../../support/raw-http.ts";

let server: ListeningApp;
beforeAll(async () => {
  server = await listenApp(FIXTURE);
});
afterAll(() => server?.stop());

/** The only routes allowed to answer 5xx: they fail on purpose (/redirect-to for a `to` redirect() refuses). */
const ERROR_ROUTES = new Set([
  "/server-error",
  "/render-error",
  "/unsendable",
  "/shop/broken",
  "/shop/render-broken",
  "/shop/layout-fails",
  "/shop/items/:id",
  "/redirect-to",
]);
/** 405 is /monitoring's answer to GET; 414 and 400 are the path checks; the rest are the fixture's pages'. */
const EXPECTED = new Set([200, 307, 400, 401, 403, 404, 405, 414]);
/** Sections that stream after 100–300 ms: only where requests overlap, so they do not add up to minutes. */
const SLOW_ROUTES = new Set(["/stream", "/late-error", "/late-not-found"]);
const { routes } = await loadApp();
const { match, nodes } = routeTree(routes);

// ---------------------------------------------------------------------------------------------------
// Paths and queries.

const segment = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.string({ unit: "binary-ascii", maxLength: 8 }),
  // Valid percent-encoding of any code point.
  fc.string({ unit: "binary", maxLength: 6 }).map(encodeURIComponent),
  // Malformed or tricky percent-encoding: truncated, overlong, an encoded surrogate, encoded separators.
  fc.constantFrom(
    "%",
    "%G0",
    "%E0%A4%A",
    "%C0%AF",
    "%FF",
    "%ED%A0%80",
    "%00",
    "%2F",
    "%2e%2e",
    "%5C",
    "%25",
    "%%",
    "%u0041",
  ),
  fc.constantFrom(
    "..",
    ".",
    "",
    ";x=1",
    "\\",
    "@",
    ":",
    "~",
    "*",
    "__data",
    "items",
    "assets",
    "monitoring",
    "healthz",
  ),
  fc.constantFrom(MARKER, "%3Cx-fuzz%3E", '"><x-fuzz>', "</script><x-fuzz>"),
);

const routePaths = [...new Set(nodes.map((node) => node.pattern))];
const fastRoutes = fc.constantFrom(...routePaths.filter((p) => !SLOW_ROUTES.has(p)));
const otherBases = fc.constantFrom("", "/no/such/page", "/assets", "/monitoring", "/healthz", "//", "/items");
/** Where generated paths start; the slow streamed pages only where requests overlap anyway. */
function base(withSlow: boolean): fc.Arbitrary<string> {
  const slow = { weight: withSlow ? 3 : 0, arbitrary: fc.constantFrom(...SLOW_ROUTES) };
  return fc.oneof({ weight: 10, arbitrary: fastRoutes }, slow, { weight: 3, arbitrary: otherBases });
}

/** Near and past the 8 KiB path limit, and long enough to cost something if it were copied around. */
const longSegment = fc
  .tuple(fc.constantFrom("a", "%41", "\u00e9", MARKER, "../", "%"), fc.integer({ min: 500, max: 3_000 }))
  .map(([s, n]) => `/${s.repeat(n)}`);

const queryValue = fc.oneof(
  hostileString(),
  hostileString().map(encodeURIComponent),
  fc.constantFrom("%", "%E0%A4%A", "%FF", "%00", "%3Cx-fuzz%3E", "a+b", "a=b=c"),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => MARKER.repeat(n / MARKER.length)),
);
const query = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof(fc.constant("q"), fc.string({ maxLength: 5 })), queryValue), {
      minLength: 1,
      maxLength: 4,
    }),
    fc.constantFrom("&", ";", "&&"),
  )
  .map(([pairs, separator]) => pairs.map(([k, v]) => `${k}=${v}`).join(separator));

/** A path as a visitor (or a script) might type it; the URL parser will still normalise some of it. */
function pagePath({ withSlow = true } = {}): fc.Arbitrary<string> {
  return fc
    .record({
      data: fc.boolean(),
      base: base(withSlow),
      segments: fc.oneof(fc.constant<string[]>([]), fc.array(segment, { minLength: 1, maxLength: 4 })),
      long: fc.oneof({ weight: 9, arbitrary: fc.constant("") }, { weight: 1, arbitrary: longSegment }),
      query: fc.option(query, { freq: 3 }),
    })
    .map(({ data, base, segments, long, query }) => {
      const path = `${base}${segments.map((s) => `/${s}`).join("")}${long}` || "/";
      return `${data ? PAGE_DATA_PREFIX : ""}${path.startsWith("/") ? path : `/${path}`}${query === null ? "" : `?${query}`}`;
    });
}

// ---------------------------------------------------------------------------------------------------
// What must hold for one response.

/** The route that will answer a URL, decided as the server decides it (page data strips its prefix). */
function targetOf(url: string): { isData: boolean; route: string | undefined; resource?: boolean } {
  let pathname = new URL(url).pathname;
  const isData = pathname === PAGE_DATA_PREFIX || pathname.startsWith(`${PAGE_DATA_PREFIX}/`);
  if (isData) pathname = pathname.slice(PAGE_DATA_PREFIX.length) || "/";
  try {
    decodeURI(pathname);
  } catch {
    return { isData, route: undefined };
  }
  const found = match(pathname);
  return { isData, route: found?.pattern, resource: found ? isResourceRoute(found.route) : false };
}

/** Over a socket, Bun answers a request line or headers past its 16 KiB limit itself. */
const BUN_LIMITS = [431];

/** Generated input carries <x-fuzz> markers: raw in HTML means it was never escaped. */
function checkEscaped(what: unknown, contentType: string | undefined, body: string): void {
  // Page data is JSON read by fetch, not parsed as markup: it may carry the text as it is.
  if (contentType !== undefined && !contentType.startsWith("text/html")) return;
  expect({ what, unescaped: /<x-fuzz/i.test(body) }).toEqual({ what, unescaped: false });
}

function checkPage(url: string, status: number, contentType: string, body: string, extra: number[] = []): void {
  const { isData, route, resource } = targetOf(url);
  const allowed = [...EXPECTED, ...extra, ...(ERROR_ROUTES.has(route ?? "") ? [500] : [])];
  expect({ url, status }).toEqual({ url, status: allowed.includes(status) ? status : -1 });
  checkEscaped(url, contentType, body);
  // 400 and 414 are the plain-text path checks, and a route without a page answers as it does: the client
  // falls back to a full page load on them.
  if (isData && !resource && ![400, 414, ...extra].includes(status))
    expect(contentType).toStartWith("application/x-ndjson");
  if (contentType.startsWith("application/x-ndjson")) {
    expect(body.endsWith("\n")).toBe(true);
    // As the browser reads them (page-data-client.ts): JSON, then the codec's form revived.
    const lines = body
      .slice(0, -1)
      .split("\n")
      .map((l) => revive(JSON.parse(l)));
    expect(lines[0]).toMatchObject({ v: 3 });
  }
}

async function viaHandle(path: string): Promise<number | undefined> {
  let request: Request;
  try {
    request = new Request(`http://localhost${path}`);
  } catch {
    return undefined;
  }
  const res = await server.handle(request);
  checkPage(request.url, res.status, res.headers.get("content-type") ?? "", await res.text());
  return res.status;
}

// ---------------------------------------------------------------------------------------------------

describe("pages under random paths and queries", () => {
  test("app.handle: expected statuses, no 5xx outside the error routes, nothing unescaped, page data parses", async () => {
    const seen = tally("pages fuzz, app.handle: statuses");
    await fc.assert(
      // A few at once: requests in flight together share the server, as they do in production.
      fc.asyncProperty(fc.array(pagePath({ withSlow: false }), { minLength: 1, maxLength: 8 }), async (paths) => {
        for (const status of await Promise.all(paths.map(viaHandle))) seen.add(status ?? "not a URL");
      }),
      fuzzParams(0.3),
    );
    seen.print();
  });

  test("a real socket via fetch: the same, with Bun's own URL handling in front", async () => {
    const seen = tally("pages fuzz, socket fetch: statuses");
    await fc.assert(
      fc.asyncProperty(fc.array(pagePath(), { minLength: 1, maxLength: 4 }), async (paths) => {
        await Promise.all(
          paths.map(async (path) => {
            let url: URL;
            try {
              url = new URL(`${server.origin}${path}`);
            } catch {
              return;
            }
            const res = await fetch(url, { redirect: "manual" });
            checkPage(url.href, res.status, res.headers.get("content-type") ?? "", await res.text(), BUN_LIMITS);
            seen.add(res.status);
          }),
        );
      }),
      fuzzParams(0.05),
    );
    seen.print();
  });
});

/** Request targets as raw bytes: unencoded markers and unicode, absolute-form, and the odd forms. */
const rawTarget = fc.oneof(
  { weight: 3, arbitrary: pagePath({ withSlow: false }) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...routePaths), hostileString({ maxPieces: 5 })).map(([p, q]) => `${p}?q=${q}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("http://evil.example", "https://127.0.0.1:1", "http://<x-fuzz>"),
        pagePath({ withSlow: false }),
      )
      .map(([o, p]) => o + p),
  },
  { weight: 1, arbitrary: fc.constantFrom("*", "127.0.0.1:80", "", "search", "/\t/") },
);
const hostHeader = fc.oneof(
  fc.constantFrom(
    "127.0.0.1",
    "localhost:3000",
    "evil.example",
    "",
    "[::1]:80",
    "a b",
    MARKER,
    "x\u00e9.example",
    "127.0.0.1:99999",
  ),
  fc.string({ unit: "grapheme-ascii", maxLength: 20 }),
);

/** GETs `target` with `host` over a bare socket; CR and LF are dropped, since they would end the line itself. */
async function rawGet(target: string, host: string) {
  const head = `GET ${target.replace(/[\r\n]/g, "")} HTTP/1.1\r\nHost: ${host.replace(/[\r\n]/g, "")}\r\nConnection: close\r\n\r\n`;
  const res = await rawExchange(server.port, new TextEncoder().encode(head));
  const what = { target, host };
  // Every request here is complete, so the server must answer and close within the exchange's 5 s.
  expect({ ...what, answered: res.closed }).toEqual({ ...what, answered: true });
  if (res.status === undefined) return "no answer";
  // Brisk stamps every response with x-request-id; an empty one without it is Bun's HTTP parser refusing
  // the request line. It answers whitespace or control characters in the target with 505 (the rest of
  // the line reads as the version): a 5xx Brisk cannot change, only document.
  const fromParser = res.headers["x-request-id"] === undefined && res.body.byteLength === 0;
  const badRequestLine = fromParser && res.status === 505 && /[\u0000-\u0020\u007f]/.test(target);
  const isErrorRoute = [...ERROR_ROUTES].some((r) => target.includes(r));
  if (!isErrorRoute && !badRequestLine) {
    expect({ ...what, status: res.status }).toEqual({ ...what, status: res.status < 500 ? res.status : -1 });
  }
  checkEscaped(what, res.headers["content-type"], new TextDecoder().decode(res.body));
  return fromParser ? `${res.status} (Bun parser)` : res.status;
}

describe("pages under raw requests (real socket)", () => {
  test("unencoded input in the request target: no 5xx outside the error routes, nothing unescaped", async () => {
    const seen = tally("pages fuzz, raw targets: statuses");
    await fc.assert(
      fc.asyncProperty(rawTarget, async (target) => void seen.add(await rawGet(target, "127.0.0.1"))),
      fuzzParams(0.1),
    );
    seen.print();
  });

  test("any Host header: no 5xx outside the error routes, nothing unescaped", async () => {
    const seen = tally("pages fuzz, Host headers: statuses");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/", "/search?q=x", "/__data/", "/no/such/page"),
        hostHeader,
        async (target, host) => void seen.add(await rawGet(target, host)),
      ),
      fuzzParams(0.05),
    );
    seen.print();
  });

  test("the server still serves after the fuzzing", async () => {
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.origin}/search?q=after`)).status).toBe(200);
  });
});
