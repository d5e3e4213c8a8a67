// stored-page.ts: a page rendered once, kept as the pieces between the values each response fills in (its
// nonce, host, path), with those pieces also kept gzip-compressed, so that a response is joined, never
// rendered or compressed again.
import zlib from "node:zlib";
import { scriptJson } from "../runtime/script-json.ts";

/** Rendered where a response's own values go; the HTML is split there once. */
export const SLOT_MARKERS = {
  nonce: "brisk0prerender0nonce0slot",
  host: "brisk-prerender-host.invalid",
  path: "/brisk0prerender0path0slot",
  search: "brisk0prerender0search0slot",
  // The boot script's client configuration, as the JSON string it is rendered as: a build may run with
  // another configuration (no SENTRY_DSN) than the server that serves its pages.
  config: '"brisk0prerender0config0slot"',
} as const;

export type SlotName = keyof typeof SLOT_MARKERS;

/** The values one response fills in. */
export type SlotValues = Record<SlotName, string>;

/** Where a slot sits decides its escaping: inside an inline script it is part of a JSON string. */
interface Slot {
  name: SlotName;
  inScript: boolean;
}

export interface StoredPage {
  status: number;
  /** The HTML between the slots: `slots[i]` goes after `parts[i]`. */
  parts: string[];
  slots: Slot[];
  /** Every piece of `parts` as raw deflate, each ending on a byte boundary (see gzipOf). */
  deflated: string[];
  /** Of the page as rendered, slots included: it changes only when the page does. */
  etag: string;
  /** The render's headers but the CSP (which names the nonce) and the request id. */
  headers: Array<[string, string]>;
  renderedAt: number;
}

/** Page data: no slots, so kept whole and compressed whole, at the best levels (once per render). */
export interface StoredData {
  body: string;
  br: string;
  gzip: string;
  headers: Array<[string, string]>;
}

const MARKER = new RegExp(
  `(${Object.values(SLOT_MARKERS)
    .map((m) => m.replaceAll(".", "\\."))
    .join("|")})`,
);
const NAME_OF = new Map<string, SlotName>(Object.entries(SLOT_MARKERS).map(([name, marker]) => [marker, name as SlotName]));

/** The nonce is always this long (16 random bytes in base64), so back-references may reach across it. */
const NONCE_LENGTH = 24;
/** Deflate's window: back-references reach no further. */
const WINDOW = 32 * 1024;

type Bytes = Uint8Array<ArrayBuffer>;

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const fromBase64 = (text: string): Bytes => new Uint8Array(Buffer.from(text, "base64"));

/**
 * Each part compressed on its own, ending with a sync flush (byte-aligned, not final), with what precedes it
 * back to the last slot of varying length as its dictionary: a back-reference then lands where the part
 * really follows. The nonces in that dictionary are NUL bytes, which no HTML part holds, so no match can
 * run into one; a page that does hold a NUL gets no dictionaries at all.
 */
function deflateParts(parts: readonly string[], slots: readonly Slot[]): string[] {
  const withDictionary = !parts.some((p) => p.includes("\0"));
  let preceding = "";
  return parts.map((part, i) => {
    const options: zlib.ZlibOptions = { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH };
    if (withDictionary && preceding) options.dictionary = Buffer.from(preceding.slice(-WINDOW));
    const deflated = toBase64(zlib.deflateRawSync(part, options));
    const slot = slots[i];
    preceding = slot?.name === "nonce" ? preceding + part + "\0".repeat(NONCE_LENGTH) : "";
    return deflated;
  });
}

/** Splits a render made with the slot markers; `status` and `headers` are the render's. */
export function storePage(html: string, status: number, headers: Array<[string, string]>): StoredPage {
  const pieces = html.split(MARKER);
  const parts: string[] = [];
  const slots: Slot[] = [];
  let offset = 0;
  for (const [i, piece] of pieces.entries()) {
    if (i % 2 === 0) parts.push(piece);
    else slots.push({ name: NAME_OF.get(piece)!, inScript: html.lastIndexOf("<script", offset) > html.lastIndexOf("</script>", offset) });
    offset += piece.length;
  }
  return { status, parts, slots, deflated: deflateParts(parts, slots), etag: `"${Bun.hash(html).toString(36)}"`, headers, renderedAt: Date.now() };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** As React would have written the value there: JSON string content inside a script, escaped text elsewhere. */
function escaped(value: string, inScript: boolean): string {
  if (inScript) return scriptJson(value).slice(1, -1);
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** The nonce needs no escaping, and the configuration comes as script-safe JSON (scriptJson). */
const AS_IS: ReadonlySet<SlotName> = new Set(["nonce", "config"]);

function fills(page: StoredPage, values: SlotValues): string[] {
  return page.slots.map(({ name, inScript }) => (AS_IS.has(name) ? values[name] : escaped(values[name], inScript)));
}

export function htmlOf(page: StoredPage, values: SlotValues): string {
  const filled = fills(page, values);
  let html = "";
  for (const [i, part] of page.parts.entries()) html += part + (filled[i] ?? "");
  return html;
}

const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const encoder = new TextEncoder();
const decodedParts = new WeakMap<StoredPage, { raw: Uint8Array[]; deflated: Bytes[] }>();

/** A stored block: its 3 header bits, then the byte boundary, the length and its complement (RFC 1951 3.2.4). */
function storedBlock(bytes: Uint8Array, final: boolean): Uint8Array {
  const block = new Uint8Array(5 + bytes.length);
  block.set([final ? 1 : 0, bytes.length & 0xff, bytes.length >> 8, ~bytes.length & 0xff, (~bytes.length >> 8) & 0xff]);
  block.set(bytes, 5);
  return block;
}

function decodedOf(page: StoredPage) {
  let decoded = decodedParts.get(page);
  if (!decoded) {
    decoded = { raw: page.parts.map((p) => encoder.encode(p)), deflated: page.deflated.map(fromBase64) };
    decodedParts.set(page, decoded);
  }
  return decoded;
}

function joined(chunks: readonly Uint8Array[]): Bytes {
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/**
 * The filled page as UTF-8: joined from bytes encoded once. A page joined as a string is encoded again for
 * every response, and one with any character beyond Latin-1 is held as UTF-16 and transcoded whole.
 */
export function bytesOf(page: StoredPage, values: SlotValues): Bytes {
  const { raw } = decodedOf(page);
  const filled = fills(page, values);
  const chunks: Uint8Array[] = [];
  for (const [i, part] of raw.entries()) {
    chunks.push(part);
    const value = filled[i];
    if (value !== undefined) chunks.push(encoder.encode(value));
  }
  return joined(chunks);
}

/**
 * The page as one gzip member: its compressed parts with each filled-in value between them as a stored
 * block, the checksum taken over what the visitor will read. Costs a few microseconds, where compressing
 * the page again costs fifty to a hundred.
 */
export function gzipOf(page: StoredPage, values: SlotValues): Bytes {
  const decoded = decodedOf(page);
  const chunks: Uint8Array[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  const add = (raw: Uint8Array, coded: Uint8Array) => {
    chunks.push(coded);
    crc = zlib.crc32(raw, crc);
    size += raw.length;
  };
  const filled = fills(page, values);
  for (const [i, raw] of decoded.raw.entries()) {
    add(raw, decoded.deflated[i]!);
    const value = filled[i];
    if (value === undefined) continue;
    // A stored block holds at most 65,535 bytes; a filled-in value longer than that goes in several.
    const bytes = encoder.encode(value);
    for (let at = 0; at < bytes.length; at += 0xffff) add(bytes.subarray(at, at + 0xffff), storedBlock(bytes.subarray(at, at + 0xffff), false));
  }
  chunks.push(storedBlock(new Uint8Array(0), true));
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, size >>> 0, true);
  chunks.push(trailer);
  return joined(chunks);
}

export function storeData(body: string, headers: Array<[string, string]>): StoredData {
  const br = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
  });
  return { body, br: toBase64(br), gzip: toBase64(zlib.gzipSync(body, { level: 9 })), headers };
}

const decodedData = new WeakMap<StoredData, { br: Bytes; gzip: Bytes }>();

export function encodedData(data: StoredData, coding: "br" | "gzip"): Bytes {
  let decoded = decodedData.get(data);
  if (!decoded) decodedData.set(data, (decoded = { br: fromBase64(data.br), gzip: fromBase64(data.gzip) }));
  return decoded[coding];
}
