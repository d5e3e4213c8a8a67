// stored-page.ts: a page rendered once, kept as the pieces between the values each response fills in (its
// nonce, host, path), with those pieces also kept gzip-compressed, so that a response is joined, never
// rendered or compressed again.
import zlib from "node:zlib";
import { scriptString } from "../../runtime/script-json.ts";
import type { Precompressed } from "../assets/precompressed.ts";
import type { Bytes } from "../request/bytes.ts";

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

/**
 * The text of `json` where a page's script holds it: inside the string the script gives JSON.parse, as the boot
 * script (render.tsx) and each streamed value's script (deferred.tsx) hold every value they carry.
 */
const inScriptString = (json: string) => scriptString(json).slice(1, -1);

/** Each marker as the page holds it: the configuration only in the boot script's string, the rest as they are. */
const WRITTEN: Record<SlotName, string> = { ...SLOT_MARKERS, config: inScriptString(SLOT_MARKERS.config) };

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
  /** The page as raw deflate, in segments between the slots whose values go in as stored blocks (gzipOf). */
  deflated: DeflatedPage;
  /** Of the page as rendered, slots included: it changes only when the page does. */
  etag: string;
  /** The render's headers but the CSP (which names the nonce) and the request id. */
  headers: Array<[string, string]>;
  renderedAt: number;
}

/**
 * Raw deflate segments, each ending on a byte boundary; after segment `i` comes the value of slot
 * `anchors[i]` as a stored block. A nonce slot that is no anchor is inside a segment, as a back-reference
 * to an earlier one: a page's nonces are all the same, so most of them cost a few bits.
 */
interface DeflatedPage {
  segments: string[];
  anchors: number[];
}

/** A route's stored document and the page data client navigation asks for. */
export interface StoredRoute {
  document: StoredPage;
  data: StoredData;
}

/** What a build stores (`prerendered.json` beside the client build), for the server to start with. */
export interface PrerenderedPages {
  buildId: string;
  routes: Record<string, StoredRoute>;
  /** null: this app's not-found page cannot be stored (it shows more of the request than its path). */
  notFound?: StoredPage | null;
}

/** Page data: no slots, so kept whole and compressed whole, at the best levels (once per render). */
export interface StoredData {
  body: string;
  br: string;
  gzip: string;
  headers: Array<[string, string]>;
}

const MARKER = new RegExp(
  `(${Object.values(WRITTEN)
    .map((m) => m.replace(/[.\\]/g, "\\$&"))
    .join("|")})`,
);
const NAME_OF = new Map<string, SlotName>(Object.entries(WRITTEN).map(([name, marker]) => [marker, name as SlotName]));

/** The nonce is always this long (16 random bytes in base64), so back-references may reach across it. */
const NONCE_LENGTH = 24;
/** Deflate's window: back-references reach no further. */
const WINDOW = 32 * 1024;
/**
 * Where a nonce goes while compressing: 24 different control characters, none of which HTML from React
 * holds. A copy of one of them can only come from the same place in another nonce, so once the first is
 * replaced by the response's nonce, every copy of it decodes to that nonce too.
 */
const PLACEHOLDER = String.fromCharCode(1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27);
const CONTROL = /[\0-\x08\x0b\x0c\x0e-\x1f]/;

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const fromBase64 = (text: string): Bytes => new Uint8Array(Buffer.from(text, "base64"));

/**
 * Segments compressed at level 9, each with what precedes it back to the last slot of varying length (a
 * host, a path) as its dictionary, so that back-references land where the segment really follows. With
 * `inline`, a nonce after the first since such a slot is compressed as the placeholder, a copy of the first.
 */
function deflateSegments(parts: readonly string[], slots: readonly Slot[], inline: boolean, withDictionary: boolean): DeflatedPage {
  const segments: string[] = [];
  const anchors: number[] = [];
  let text = "";
  let preceding = "";
  let anchored = false;
  const close = () => {
    const options: zlib.ZlibOptions = { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH };
    if (withDictionary && preceding) options.dictionary = Buffer.from(preceding.slice(-WINDOW));
    segments.push(toBase64(zlib.deflateRawSync(text, options)));
  };
  for (const [i, part] of parts.entries()) {
    text += part;
    const slot = slots[i];
    if (!slot) continue;
    if (inline && anchored && slot.name === "nonce") {
      text += PLACEHOLDER;
      continue;
    }
    close();
    anchors.push(i);
    anchored = slot.name === "nonce";
    preceding = anchored ? preceding + text + PLACEHOLDER : "";
    text = "";
  }
  close();
  return { segments, anchors };
}

/** The page with inline nonces when decoding it proves them right; every nonce a stored block otherwise. */
function deflatePage(page: Pick<StoredPage, "parts" | "slots">): DeflatedPage {
  const plain = !page.parts.some((p) => CONTROL.test(p));
  if (plain) {
    const inline = deflateSegments(page.parts, page.slots, true, true);
    const check: SlotValues = { nonce: "ABCDEFGHIJKLMNOPQRSTUVWX", host: "h.example", path: "/p&q", search: "s=1", config: '{"c":1}' };
    const stream = deflateStream({ slots: page.slots, deflated: inline }, encodedFills(page, check), inline.segments.map(fromBase64));
    const decoded = zlib.inflateRawSync(stream).toString();
    if (decoded === htmlOf(page, check)) return inline;
  }
  return deflateSegments(page.parts, page.slots, false, plain);
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
  return { status, parts, slots, deflated: deflatePage({ parts, slots }), etag: `"${Bun.hash(html).toString(36)}"`, headers, renderedAt: Date.now() };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/**
 * As the render wrote the value there: the nonce as it is (base64 needs no escaping), the configuration (JSON)
 * and any other value in a script as part of the JSON inside the script's string, escaped text elsewhere.
 */
function escaped(name: SlotName, value: string, inScript: boolean): string {
  if (name === "nonce") return value;
  if (name === "config") return inScriptString(value);
  if (inScript) return inScriptString(JSON.stringify(value).slice(1, -1));
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

function fills(page: Pick<StoredPage, "slots">, values: SlotValues): string[] {
  return page.slots.map(({ name, inScript }) => escaped(name, values[name], inScript));
}

/** The server's configuration is the same for every response: kept encoded. */
let configBytes: { json: string; bytes: Uint8Array } | undefined;

/** The filled values as UTF-8: every nonce slot the one array `nonce`, the configuration encoded once. */
function encodedFills(page: Pick<StoredPage, "slots">, values: SlotValues, nonce: Uint8Array = encoder.encode(values.nonce)): Uint8Array[] {
  const filled = fills(page, values);
  if (configBytes?.json !== values.config) configBytes = { json: values.config, bytes: encoder.encode(inScriptString(values.config)) };
  const config = configBytes.bytes;
  return page.slots.map(({ name }, i) => (name === "nonce" ? nonce : name === "config" ? config : encoder.encode(filled[i]!)));
}

export function htmlOf(page: Pick<StoredPage, "parts" | "slots">, values: SlotValues): string {
  const filled = fills(page, values);
  let html = "";
  for (const [i, part] of page.parts.entries()) html += part + (filled[i] ?? "");
  return html;
}

const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** Where a gzip member's checksum and size go, filled in per response. */
const GZIP_TRAILER = new Uint8Array(8);
const encoder = new TextEncoder();
const decodedParts = new WeakMap<StoredPage, { raw: Uint8Array[]; segments: Bytes[] }>();

/** A stored block's header: its 3 header bits, then the byte boundary, the length and its complement (RFC 1951 3.2.4). */
function storedBlockHeader(length: number, final: boolean): Uint8Array {
  return new Uint8Array([final ? 1 : 0, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff]);
}

function decodedOf(page: StoredPage) {
  let decoded = decodedParts.get(page);
  if (!decoded) {
    decoded = { raw: page.parts.map((p) => encoder.encode(p)), segments: page.deflated.segments.map(fromBase64) };
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

/** The bytes of a response but its nonce, and where each copy of the nonce goes. */
interface Template {
  bytes: Bytes;
  nonces: number[];
}

/** Stands for the nonce in a template's chunks, recognised by identity: its place is left for the response's. */
const BLANK_NONCE = new Uint8Array(NONCE_LENGTH);

function template(chunks: readonly Uint8Array[]): Template {
  const nonces: number[] = [];
  let at = 0;
  for (const chunk of chunks) {
    if (chunk === BLANK_NONCE) nonces.push(at);
    at += chunk.length;
  }
  return { bytes: joined(chunks), nonces };
}

/** A response's nonce as the bytes its templates take. */
function nonceBytes(nonce: string): Uint8Array {
  // Base64: one byte a character.
  if (nonce.length !== NONCE_LENGTH) throw new Error(`a nonce of ${nonce.length} bytes; stored pages take ${NONCE_LENGTH}`);
  return encoder.encode(nonce);
}

/** A copy of the template with the nonce written in: one copy of the page instead of a join of its pieces. */
function withNonce({ bytes, nonces }: Template, nonce: Uint8Array): Bytes {
  const body = bytes.slice();
  for (const at of nonces) body.set(nonce, at);
  return body;
}

/** The CRC-32 of the template with the nonce written in, read in place: no copy of the page for it. */
function crcWithNonce({ bytes, nonces }: Template, nonce: Uint8Array): number {
  let crc = 0;
  let from = 0;
  for (const at of nonces) {
    crc = zlib.crc32(nonce, zlib.crc32(bytes.subarray(from, at), crc));
    from = at + nonce.length;
  }
  return zlib.crc32(bytes.subarray(from), crc);
}

/** A page filled in for one host, path, search and configuration: what its responses copy. */
interface Filled {
  /** The server's, the same string on every call: compared apart from the key, which it would lengthen. */
  config: string;
  identity: Template;
  /** The gzip member but its nonces and trailer, made the first time a response takes gzip. */
  gzip?: Template;
  values: Uint8Array[];
}

/**
 * The fillings a page keeps, the newest last: a route has one host and path, the not-found page a few
 * common ones (a favicon, a robots.txt). A fuller page forgets its oldest.
 */
const FILLINGS_PER_PAGE = 16;
const fillings = new WeakMap<StoredPage, Map<string, Filled>>();

function filledOf(page: StoredPage, values: SlotValues): Filled {
  let kept = fillings.get(page);
  if (!kept) fillings.set(page, (kept = new Map()));
  const key = `${values.host}\n${values.path}\n${values.search}`;
  let filled = kept.get(key);
  if (filled?.config === values.config) return filled;
  const { raw } = decodedOf(page);
  const encoded = encodedFills(page, values, BLANK_NONCE);
  const chunks: Uint8Array[] = [];
  for (const [i, part] of raw.entries()) {
    chunks.push(part);
    const value = encoded[i];
    if (value !== undefined) chunks.push(value);
  }
  filled = { config: values.config, identity: template(chunks), values: encoded };
  if (kept.size >= FILLINGS_PER_PAGE && !kept.has(key)) kept.delete(kept.keys().next().value!);
  kept.set(key, filled);
  return filled;
}

/**
 * The filled page as UTF-8: a copy of bytes joined and encoded once per host and path, the nonce written in.
 * A page joined as a string is encoded again for every response, and one with any character beyond Latin-1
 * is held as UTF-16 and transcoded whole.
 */
export function bytesOf(page: StoredPage, values: SlotValues): Bytes {
  return withNonce(filledOf(page, values).identity, nonceBytes(values.nonce));
}

/** The raw deflate stream of a page: its segments, each anchor's value as stored blocks, a final empty block. */
function deflateChunks(page: Pick<StoredPage, "slots" | "deflated">, filled: readonly Uint8Array[], segments: readonly Uint8Array[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (const [i, segment] of segments.entries()) {
    chunks.push(segment);
    const anchor = page.deflated.anchors[i];
    if (anchor === undefined) continue;
    const value = filled[anchor]!;
    if (page.slots[anchor]!.name === "nonce" && value.length !== NONCE_LENGTH) throw new Error(`a nonce of ${value.length} bytes; stored pages take ${NONCE_LENGTH}`);
    // A stored block holds at most 65,535 bytes; a longer value goes in several. A nonce goes in as it is,
    // where a template finds it.
    if (value.length <= 0xffff) chunks.push(storedBlockHeader(value.length, false), value);
    else for (let at = 0; at < value.length; at += 0xffff) chunks.push(storedBlockHeader(Math.min(0xffff, value.length - at), false), value.subarray(at, at + 0xffff));
  }
  chunks.push(storedBlockHeader(0, true));
  return chunks;
}

function deflateStream(page: Pick<StoredPage, "slots" | "deflated">, filled: readonly Uint8Array[], segments: readonly Uint8Array[]): Bytes {
  return joined(deflateChunks(page, filled, segments));
}

/**
 * The page as one gzip member, joined from its segments compressed once, the checksum taken over what the
 * visitor will read. Costs a few microseconds, where compressing the page again costs fifty to a hundred.
 */
export function gzipOf(page: StoredPage, values: SlotValues): Bytes {
  const filled = filledOf(page, values);
  filled.gzip ??= template([GZIP_HEADER, ...deflateChunks(page, filled.values, decodedOf(page).segments), GZIP_TRAILER]);
  const nonce = nonceBytes(values.nonce);
  const gzip = withNonce(filled.gzip, nonce);
  const trailer = new DataView(gzip.buffer, gzip.length - GZIP_TRAILER.length);
  trailer.setUint32(0, crcWithNonce(filled.identity, nonce) >>> 0, true);
  trailer.setUint32(4, filled.identity.bytes.length >>> 0, true);
  return gzip;
}

export function storeData(body: string, headers: Array<[string, string]>): StoredData {
  const br = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
  });
  return { body, br: toBase64(br), gzip: toBase64(zlib.gzipSync(body, { level: 9 })), headers };
}

const decodedData = new WeakMap<StoredData, Precompressed>();

/** The page data's bytes, as they are and in both codings: decoded once, then served like an asset. */
export function bodiesOf(data: StoredData): Precompressed {
  let decoded = decodedData.get(data);
  if (!decoded) decodedData.set(data, (decoded = { body: encoder.encode(data.body), br: fromBase64(data.br), gzip: fromBase64(data.gzip) }));
  return decoded;
}
