// accept-encoding.test.ts: the coding an Accept-Encoding header picks from brotli and gzip.
import { expect, test } from "bun:test";
import { pickEncoding } from "../../../src/server/http/accept-encoding.ts";

const BOTH = ["br", "gzip"] as const;

test.each([
  ["gzip, deflate, br, zstd", "br"],
  ["br;q=0, gzip", "gzip"],
  ["br;q=0", undefined],
  ["BR", "br"],
  ["GZip", "gzip"],
  ["gzip;q=1.0, br;q=0.5", "gzip"],
  ["br; q=0.001, gzip;Q=0.002", "gzip"],
  ["gzip, br", "br"],
  ["*", "br"],
  ["*;q=0", undefined],
  ["gzip;q=0, *", "br"],
  ["br;q=0, *;q=0.5", "gzip"],
  ["identity", undefined],
  ["x-gzip", "gzip"],
  ["br;q=abc, gzip", "gzip"],
  ["br;q=1.5", undefined],
  ["br;q=-1, gzip;q=0.1", "gzip"],
  ["bro, gzipped", undefined],
  [" , ;q=1, br", "br"],
  ["", undefined],
] as const)("%p picks %p", (header, expected) => {
  expect(pickEncoding(header, BOTH)).toBe(expected);
});

test("only what is on offer is picked", () => {
  expect(pickEncoding("br, gzip;q=0.5", ["gzip"])).toBe("gzip");
  expect(pickEncoding("br", ["gzip"])).toBeUndefined();
  expect(pickEncoding("br", [])).toBeUndefined();
});
