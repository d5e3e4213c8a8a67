// prerendered-data.ts: a prerendered route's page data: no slots, so kept whole and compressed whole, at the
// best levels (once per render), and served like an asset.
import zlib from "node:zlib";
import type { Precompressed } from "../assets/precompressed.ts";
import { fromBase64, toBase64 } from "./base64.ts";

/** Page data as a build stores it: the body and its two codings. */
export interface PrerenderedData {
  body: string;
  br: string;
  gzip: string;
  headers: Array<[string, string]>;
}

export function prerenderedData(body: string, headers: Array<[string, string]>): PrerenderedData {
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });
  return { body, br: toBase64(br), gzip: toBase64(zlib.gzipSync(body, { level: 9 })), headers };
}

const encoder = new TextEncoder();
const decodedData = new WeakMap<PrerenderedData, Precompressed>();

/** The page data's bytes, as they are and in both codings: decoded once. */
export function bodiesOf(data: PrerenderedData): Precompressed {
  let decoded = decodedData.get(data);
  if (!decoded)
    decodedData.set(
      data,
      (decoded = { body: encoder.encode(data.body), br: fromBase64(data.br), gzip: fromBase64(data.gzip) }),
    );
  return decoded;
}
