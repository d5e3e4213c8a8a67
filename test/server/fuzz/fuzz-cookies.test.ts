// Property tests: any Cookie header reads without throwing, a signed cookie reads back only as it was signed,
// and any text survives the trip through Set-Cookie and Cookie.
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { createCookieSigner, type CookieSigner } from "../../../src/server/cookies/cookie-signer.ts";
import { createCookies } from "../../../src/server/cookies/cookies.ts";
import { fuzzParams, hostileString, tally } from "../../support/fuzz.ts";

const SECRETS = ["fuzz-secret-one-fuzz-secret-one-0001", "fuzz-secret-two-fuzz-secret-two-0002"];
let signer: CookieSigner;
beforeAll(async () => {
  signer = await createCookieSigner(SECRETS);
});

/** The Cookie header a browser sends back for these Set-Cookie values. */
const cookieHeaderFrom = (setCookies: string[]) => setCookies.map((line) => line.split(";", 1)[0]).join("; ");

const cookieName = fc.stringMatching(/^[A-Za-z0-9!#$&'*+.^_`|~-]{1,10}$/);

/** Pieces of Cookie headers as they are, as they should be, and as they should never be. */
const headerPiece = fc.oneof(
  fc.constantFrom(
    "session=",
    "session",
    "=",
    ";",
    "; ",
    ",",
    '"',
    "%",
    "%ZZ",
    "%C3",
    "%C3%28",
    "%ED%A0%80",
    "%00",
    "%",
    "\t",
    "$Version=1",
    "a=b=c",
    "=x",
  ),
  cookieName.map((n) => `${n}=`),
  hostileString({ loneSurrogates: true, maxPieces: 3 }),
  fc.string({ unit: "binary", maxLength: 10 }),
);
const garbageHeader = fc.array(headerPiece, { maxLength: 30 }).map((p) => p.join(""));

describe("the cookie reader, fuzzed", () => {
  test("any Cookie header reads without throwing, and no garbage verifies as signed", async () => {
    const seen = tally("cookie fuzz, garbage headers: cookies per header");
    await fc.assert(
      fc.asyncProperty(garbageHeader, fc.array(cookieName, { maxLength: 3 }), async (header, names) => {
        const cookies = createCookies(header, { secure: true, signer });
        const parsed = [...new Bun.CookieMap(header).keys()];
        seen.add(Math.min(parsed.length, 5));
        for (const name of [...parsed, ...names, "session"]) {
          const value = cookies.get(name);
          expect(value === undefined || typeof value === "string").toBe(true);
          expect(await cookies.getSigned(name)).toBeUndefined();
        }
        expect(cookies.setCookieHeaders()).toEqual([]);
      }),
      fuzzParams(0.5),
    );
    seen.print();
  });

  test("a signed cookie with any change to its value or signature reads as absent", async () => {
    const seen = tally("cookie fuzz, tampering: kinds");
    const change = fc.oneof(
      fc.record({
        kind: fc.constant("replace" as const),
        at: fc.nat(),
        char: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
      }),
      fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant("insert" as const),
        at: fc.nat(),
        text: fc.string({ unit: "binary", minLength: 1, maxLength: 3 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(hostileString(), change, async (value, c) => {
        const signed = await signer.sign(value, "session");
        const at = c.at % (signed.length + 1);
        const forged =
          c.kind === "cut"
            ? signed.slice(0, at)
            : c.kind === "insert"
              ? signed.slice(0, at) + c.text + signed.slice(at)
              : signed.slice(0, at) + c.char + signed.slice(at + 1);
        if (forged === signed) return;
        seen.add(c.kind);
        const response = createCookies(null, { secure: true });
        response.set("session", forged);
        const read = await createCookies(cookieHeaderFrom(response.setCookieHeaders()), {
          secure: true,
          signer,
        }).getSigned("session");
        expect({ forged, read }).toEqual({ forged, read: undefined });
      }),
      fuzzParams(0.5),
    );
    seen.print();
  });

  test("any well-formed text survives Set-Cookie and Cookie, plain and signed", async () => {
    await fc.assert(
      fc.asyncProperty(cookieName, hostileString(), async (name, value) => {
        const response = createCookies(null, { secure: true, signer });
        response.set(`${name}-plain`, value);
        await response.setSigned(name, value);
        const request = createCookies(cookieHeaderFrom(response.setCookieHeaders()), { secure: true, signer });
        expect(request.get(`${name}-plain`)).toBe(value);
        expect(await request.getSigned(name)).toBe(value);
      }),
      fuzzParams(0.5),
    );
  });
});
