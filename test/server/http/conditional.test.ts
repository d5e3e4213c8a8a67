// Preconditions of a GET or HEAD (RFC 9110 13.1, in 13.2.2's order), as the public files, the client assets and
// the prerendered pages evaluate them against their validators.
import { describe, expect, test } from "bun:test";
import { precondition } from "../../../src/server/http/conditional.ts";

const ETAG = '"abc"';
const MODIFIED = Date.UTC(2026, 10, 29, 12, 0, 0);
const BEFORE = "Sun, 29 Nov 2026 11:59:59 GMT";
const AT = "Sun, 29 Nov 2026 12:00:00 GMT";
const ask = (
  headers: Record<string, string>,
  validators: Parameters<typeof precondition>[1] = { etag: ETAG, lastModified: MODIFIED },
) => precondition(new Request("http://localhost/x", { headers }), validators);

describe("If-Match: the strong comparison", () => {
  test.each([
    ['"nope"', 412],
    ['"nope", "abc"', undefined],
    ["*", undefined],
    ['W/"abc"', 412],
    ["abc", 412],
    ['"a,b", "abc"', undefined],
  ] as const)("%s gives %s", (field, status) => {
    expect(ask({ "if-match": field })).toBe(status);
  });

  test("a weak ETag matches no listed tag, its own included; only `*` holds", () => {
    const weak = { etag: 'W/"abc"' };
    expect(ask({ "if-match": 'W/"abc"' }, weak)).toBe(412);
    expect(ask({ "if-match": '"abc"' }, weak)).toBe(412);
    expect(ask({ "if-match": "*" }, weak)).toBeUndefined();
  });

  test("a tag inside a quoted list item with a comma is one tag, not two", () => {
    expect(ask({ "if-match": '"a,b"' }, { etag: '"a,b"' })).toBeUndefined();
    expect(ask({ "if-match": '"a,b"' }, { etag: '"a"' })).toBe(412);
  });
});

describe("If-Unmodified-Since", () => {
  test("412 when the file changed after the date; the date itself or later holds", () => {
    expect(ask({ "if-unmodified-since": BEFORE })).toBe(412);
    expect(ask({ "if-unmodified-since": AT })).toBeUndefined();
  });

  test("ignored when If-Match is sent, when it is not an HTTP-date, and without a modification date", () => {
    expect(ask({ "if-match": ETAG, "if-unmodified-since": BEFORE })).toBeUndefined();
    expect(ask({ "if-unmodified-since": "2020" })).toBeUndefined();
    expect(ask({ "if-unmodified-since": BEFORE }, { etag: ETAG })).toBeUndefined();
  });
});

describe("If-None-Match: the weak comparison; then If-Modified-Since", () => {
  test.each([
    ['"abc"', 304],
    ['W/"abc"', 304],
    ['"other", W/"abc"', 304],
    ["*", 304],
    ['"other"', undefined],
  ] as const)("%s gives %s, against a strong or a weak ETag", (field, status) => {
    expect(ask({ "if-none-match": field })).toBe(status);
    expect(ask({ "if-none-match": field }, { etag: 'W/"abc"' })).toBe(status);
  });

  test("If-None-Match wins over If-Modified-Since; If-Modified-Since alone is a 304 once the file is not newer", () => {
    expect(ask({ "if-none-match": '"other"', "if-modified-since": AT })).toBeUndefined();
    expect(ask({ "if-modified-since": AT })).toBe(304);
    expect(ask({ "if-modified-since": BEFORE })).toBeUndefined();
  });

  test("a failed If-Match is a 412 whatever If-None-Match says", () => {
    expect(ask({ "if-match": '"nope"', "if-none-match": ETAG })).toBe(412);
  });
});
