// redirect() and returnTo: a target a browser could read as another host or as script is refused with an error
// naming it and the fix (a 500 with a digest, reported once), another site only when the call says `external`,
// and a return path from untrusted input stays on the site, as the URL standard's parser reads it.
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { Outcome, redirect, type RedirectOptions } from "../../src/runtime/outcome.ts";
import { returnTo } from "../../src/runtime/redirect-target.ts";
import { logFor, type ServedApp } from "brisk/test";
import { FIXTURE, serveWith } from "../support/app.ts";
import { fuzzParams, hostileString, tally } from "../support/fuzz.ts";

const SITE = new URL("https://site.example/dir/page?x=1");

/** redirect() as code that passes a target its types would not see: any string, at run time. */
const redirectAny: (url: string, options?: RedirectOptions) => never = redirect as never;

/** What redirect() does with a target: the Outcome it throws, or the message of the error it throws instead. */
function attempt(url: string, options?: RedirectOptions): { location: string; status: number } | { refused: string } {
  try {
    redirectAny(url, options);
  } catch (thrown) {
    if (thrown instanceof Outcome) return { location: thrown.location!, status: thrown.status };
    if (thrown instanceof Error && thrown.constructor === Error) return { refused: thrown.message };
    throw thrown;
  }
}

/** Percent-decoded once, as a proxy or a server that decodes the path would see it; undefined when malformed. */
function decodedOnce(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

// The red team's targets (2026-11-29, section 5), and the ways around a check on the raw string.
const OTHER_HOST_OR_SCRIPT = [
  "//evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "\u0001//evil.example",
  "\u007f//evil.example",
  "\u0085//evil.example",
  "\u3000//evil.example",
  "\u00a0/x",
  " /x",
  "/x ",
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "\u0001javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "ftp://evil.example/",
  "",
];
const ABSOLUTE = ["https://evil.example", "HTTP://evil.example/x", "https:evil.example", "http:/evil.example"];

/** The fuzz tests' slashes, and what a browser drops or reads as a slash before it knows the host. */
const MISREAD = [
  "/",
  "\\",
  "//",
  "\t",
  "\n",
  "\r",
  " ",
  "\u0000",
  "\u0001",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u3000",
  "\ufeff",
];
/** Their pieces of a scheme, a host, and what follows a path. */
const URL_PARTS = ["http:", "https:", "javascript:", "data:", "evil.example", "@", ":", "?", "#", ".", ".."];

describe("redirect()", () => {
  test.each([...OTHER_HOST_OR_SCRIPT, ...ABSOLUTE])("refuses %p with an error naming it and the fix", (target) => {
    const result = attempt(target);
    expect(result).toEqual({ refused: expect.stringContaining(`redirect() refused ${JSON.stringify(target)}: `) });
    if ("refused" in result) {
      expect(result.refused).toContain("returnTo(next, fallback)");
      expect(result.refused).toContain("redirect(url, { external: true })");
    }
  });

  test.each(OTHER_HOST_OR_SCRIPT)("refuses %p even with external", (target) => {
    expect(attempt(target, { external: true })).toEqual({ refused: expect.stringMatching(/^redirect\(\) refused /) });
  });

  test.each(["https:evil.example", "https://", "http://exa mple.com/"])(
    "with external, refuses %p: not a whole http(s) URL",
    (target) => {
      expect(attempt(target, { external: true })).toEqual({
        refused: expect.stringContaining("not a whole http(s) URL"),
      });
    },
  );

  test.each([
    ["/", "/"],
    ["/a?b=c#d", "/a?b=c#d"],
    ["relative/path", "relative/path"],
    ["?page=2", "?page=2"],
    ["#top", "#top"],
    ["/a b", "/a b"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    // A header carries bytes: anything else is UTF-8, percent-encoded, as the browser would send it.
    ["/日本?q=é#ü", "/%E6%97%A5%E6%9C%AC?q=%C3%A9#%C3%BC"],
    ["/\ud800x", "/%EF%BF%BDx"],
  ])("sends the path %p as %p", (target, location) => {
    expect(attempt(target)).toEqual({ location, status: 307 });
  });

  test("sends another site's URL with external, as the URL parser writes it, and a path as well", () => {
    expect(attempt("https://evil.example", { external: true })).toEqual({
      location: "https://evil.example/",
      status: 307,
    });
    expect(attempt("HTTPS://bücher.example/ä?q=1", { external: true, status: 303 })).toEqual({
      location: "https://xn--bcher-kva.example/%C3%A4?q=1",
      status: 303,
    });
    expect(attempt("/home", { external: true, permanent: true })).toEqual({ location: "/home", status: 308 });
  });

  test("a target it sends, without external, is on the site as the URL standard's parser reads it, and fits in a header", () => {
    const piece = fc.oneof(
      fc.constantFrom(...MISREAD),
      fc.constantFrom(...URL_PARTS, "%2f", "%5c", "%09", "é", "日"),
      hostileString({ loneSurrogates: true, maxPieces: 2 }),
    );
    const seen = tally("redirect() fuzz: targets");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const target = pieces.join("");
        const result = attempt(target);
        seen.add("refused" in result ? "refused" : "sent");
        if ("refused" in result) return;
        expect(new URL(result.location, SITE).origin).toBe(SITE.origin);
        expect(new Response(null, { headers: { location: result.location } }).headers.get("location")).toBe(
          result.location,
        );
      }),
      fuzzParams(2.5),
    );
    seen.print();
    expect(Math.min(seen.count("refused"), seen.count("sent"))).toBeGreaterThan(100);
  });
});

describe("returnTo", () => {
  test.each([
    "/",
    "/examples/account/notes",
    "/x?y=1#z",
    "/a/b/../c",
    "/search?q=%E2%82%AC+100%25",
    "/caf%C3%A9",
    "/a//b",
  ])("keeps the path %p", (next) => {
    expect<string>(returnTo(next, "/home")).toBe(next);
  });

  test.each([
    "https://evil.example",
    "HTTPS://evil.example/examples/account",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "/%09/evil.example",
    "/%0A/evil.example",
    "/\t/evil.example",
    "\u0001//evil.example",
    "\u007f//evil.example",
    " /x",
    "\u3000/x",
    "javascript:alert(1)",
    "java%0ascript:alert(1)",
    "evil.example",
    "relative/path",
    "?next=//evil.example",
    "/100%",
    "/%E0%A4%A",
    `/${"a".repeat(2048)}`,
    "",
  ])("gives the fallback for %p", (next) => {
    expect<string>(returnTo(next, "/home")).toBe("/home");
  });

  test.each([[null], [undefined], [["/x"]], [42], [{ toString: () => "/x" }], [new File(["/x"], "/x")]])(
    "gives the fallback for the form value %p",
    (next) => {
      expect<string>(returnTo(next, "/home")).toBe("/home");
    },
  );

  test.each(["https://site.example/home", "//site.example/home", "home", ""])(
    "refuses the fallback %p, whatever next is",
    (fallback) => {
      expect(() => returnTo("/fine", fallback)).toThrow(
        `returnTo(): the fallback ${JSON.stringify(fallback)} is not a path on this site`,
      );
    },
  );

  test("what it gives, resolved against the site and after one more decoding, keeps the site's origin, and redirect() sends it", () => {
    const piece = fc.oneof(
      fc.constantFrom(...MISREAD, ...URL_PARTS),
      fc.constantFrom(
        "%2f",
        "%2F",
        "%5c",
        "%5C",
        "%09",
        "%0a",
        "%00",
        "%20",
        "%25",
        "%252f",
        "%",
        "%E2%82%AC",
        "%C0%AF",
        "%ED%A0%80",
      ),
      hostileString({ loneSurrogates: true, maxPieces: 2 }),
    );
    const next = fc.oneof(
      { weight: 4, arbitrary: fc.array(piece, { maxLength: 8 }).map((p) => p.join("")) },
      { weight: 4, arbitrary: fc.array(piece, { maxLength: 8 }).map((p) => `/${p.join("")}`) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, ["/x"], 1, new File([], "/x")) },
    );
    const seen = tally("returnTo fuzz: results");
    fc.assert(
      fc.property(next, (value) => {
        const path = returnTo(value, "/fallback");
        seen.add(path === "/fallback" ? "fallback" : "kept");
        if (path !== "/fallback") expect<string>(path).toBe(value as string);
        for (const read of [path, decodedOnce(path)]) expect(new URL(read!, SITE).origin).toBe(SITE.origin);
        expect(attempt(path)).toHaveProperty("location");
      }),
      fuzzParams(2.5),
    );
    seen.print();
    expect(Math.min(seen.count("fallback"), seen.count("kept"))).toBeGreaterThan(100);
  });
});

describe("a refused target through the app", () => {
  let t: ServedApp;
  const captured: unknown[] = [];
  beforeAll(async () => {
    t = await serveWith(FIXTURE, { capture: (e) => void captured.push(e) });
  });

  test.each(["https://evil.example", "//evil.example", "\u007f//evil.example"])(
    "%p is a 500 with a digest, no Location, reported once with the message",
    async (to) => {
      const before = captured.length;
      const res = await t.request(`/redirect-to?to=${encodeURIComponent(to)}`, { headers: { accept: "text/html" } });
      expect(res.status).toBe(500);
      expect(res.headers.get("location")).toBeNull();
      const html = await res.text();
      const digest = /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)?.[1];
      expect(digest).toBeDefined();
      expect(html).not.toContain("redirect() refused");
      expect(await logFor(t.logs, res)).toMatchObject({ level: "error", status: 500, digest });
      expect(captured.slice(before)).toEqual([
        expect.objectContaining({ message: expect.stringContaining(`redirect() refused ${JSON.stringify(to)}`) }),
      ]);
    },
  );
});
