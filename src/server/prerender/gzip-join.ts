// gzip-join.ts: a prerendered page as one gzip member joined per response: raw deflate segments compressed once,
// when the page is stored, each slot's value between them as stored blocks, and the checksum and size taken
// over what the visitor reads. No response compresses anything.
import zlib from "node:zlib";
import type { Bytes } from "../request/responses.ts";
import { fromBase64, toBase64 } from "./base64.ts";
import { checkNonceLength, joined, template, withNonce, type Template } from "./nonce-template.ts";
import { encodedFills, htmlOf, type Slot, type SlottedPage, type SlotValues } from "./page-slots.ts";

/**
 * Raw deflate segments, each ending on a byte boundary; after segment `i` comes the value of slot
 * `anchors[i]` as a stored block. A nonce slot that is no anchor is inside a segment, as a back-reference
 * to an earlier one: a page's nonces are all the same, so most of them cost a few bits.
 */
export interface DeflatedPage {
  segments: string[];
  anchors: number[];
}

/** Deflate's window: back-references reach no further. */
const WINDOW = 32 * 1024;
/**
 * Where a nonce goes while compressing: 24 different control characters, none of which HTML from React
 * holds. A copy of one of them can only come from the same place in another nonce, so once the first is
 * replaced by the response's nonce, every copy of it decodes to that nonce too.
 */
const PLACEHOLDER = String.fromCharCode(
  1,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  11,
  12,
  14,
  15,
  16,
  17,
  18,
  19,
  20,
  21,
  22,
  23,
  24,
  25,
  26,
  27,
);
const CONTROL = /[\0-\x08\x0b\x0c\x0e-\x1f]/;

/**
 * Segments compressed at level 9, each with what precedes it back to the last slot of varying length (a
 * host, a path) as its dictionary, so that back-references land where the segment really follows. With
 * `inline`, a nonce after the first since such a slot is compressed as the placeholder, a copy of the first.
 */
function deflateSegments(
  parts: readonly string[],
  slots: readonly Slot[],
  inline: boolean,
  withDictionary: boolean,
): DeflatedPage {
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
export function deflatePage(page: SlottedPage): DeflatedPage {
  const plain = !page.parts.some((p) => CONTROL.test(p));
  if (plain) {
    const inline = deflateSegments(page.parts, page.slots, true, true);
    const check: SlotValues = {
      nonce: "ABCDEFGHIJKLMNOPQRSTUVWX",
      host: "h.example",
      path: "/p&q",
      search: "s=1",
      config: '{"c":1}',
    };
    const stream = joined(
      deflateChunks(
        { slots: page.slots, deflated: inline },
        encodedFills(page, check),
        inline.segments.map(fromBase64),
      ),
    );
    const decoded = zlib.inflateRawSync(stream).toString();
    if (decoded === htmlOf(page, check)) return inline;
  }
  return deflateSegments(page.parts, page.slots, false, plain);
}

/** What joining a page's deflate stream reads of it. */
interface Deflated {
  slots: readonly Slot[];
  deflated: DeflatedPage;
}

/** A stored block's header: its 3 header bits, then the byte boundary, the length and its complement (RFC 1951 3.2.4). */
function storedBlockHeader(length: number, final: boolean): Uint8Array {
  return new Uint8Array([final ? 1 : 0, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff]);
}

/** The raw deflate stream of a page: its segments, each anchor's value as stored blocks, a final empty block. */
function deflateChunks(page: Deflated, filled: readonly Uint8Array[], segments: readonly Uint8Array[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (const [i, segment] of segments.entries()) {
    chunks.push(segment);
    const anchor = page.deflated.anchors[i];
    if (anchor === undefined) continue;
    const value = filled[anchor]!;
    if (page.slots[anchor]!.name === "nonce") checkNonceLength(value.length);
    // A stored block holds at most 65,535 bytes; a longer value goes in several. A nonce goes in as it is,
    // where a template finds it.
    if (value.length <= 0xffff) chunks.push(storedBlockHeader(value.length, false), value);
    else
      for (let at = 0; at < value.length; at += 0xffff)
        chunks.push(storedBlockHeader(Math.min(0xffff, value.length - at), false), value.subarray(at, at + 0xffff));
  }
  chunks.push(storedBlockHeader(0, true));
  return chunks;
}

const GZIP_HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** Where a gzip member's checksum and size go, filled in per response. */
const GZIP_TRAILER = new Uint8Array(8);

/**
 * The gzip member of a page filled in for one host and path, its nonces and trailer left blank: `filled` are
 * the slots' values (the nonce a template's blank), `segments` the page's deflate segments decoded.
 */
export function gzipTemplate(page: Deflated, filled: readonly Uint8Array[], segments: readonly Uint8Array[]): Template {
  return template([GZIP_HEADER, ...deflateChunks(page, filled, segments), GZIP_TRAILER]);
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

/**
 * The gzip member with the response's nonce written in, its checksum and size those of `identity` (the same
 * page uncompressed) with that nonce: a small part of what compressing the page again would cost
 * (bench/README.md, figures the source carried: prerendered pages).
 */
export function gzipMember(gzip: Template, identity: Template, nonce: Uint8Array): Bytes {
  const member = withNonce(gzip, nonce);
  const trailer = new DataView(member.buffer, member.length - GZIP_TRAILER.length);
  trailer.setUint32(0, crcWithNonce(identity, nonce) >>> 0, true);
  trailer.setUint32(4, identity.bytes.length >>> 0, true);
  return member;
}
