// prerendered-page.ts: a page rendered once, kept as the pieces between the values each response fills in (its
// nonce, host, path), with those pieces also kept gzip-compressed, so that a response is joined, never
// rendered or compressed again.
import { etagOf } from "../http/conditional.ts";
import type { Bytes } from "../request/responses.ts";
import { fromBase64 } from "./base64.ts";
import { deflatePage, gzipMember, gzipTemplate, type DeflatedPage } from "./gzip-join.ts";
import { BLANK_NONCE, nonceBytes, template, withNonce, type Template } from "./nonce-template.ts";
import { encodedFills, splitAtSlots, type SlotName, type SlottedPage, type SlotValues } from "./page-slots.ts";
import type { PrerenderedData } from "./prerendered-data.ts";

export interface PrerenderedPage extends SlottedPage {
  status: number;
  /** The page as raw deflate, in segments between the slots whose values go in as stored blocks (gzip-join.ts). */
  deflated: DeflatedPage;
  /**
   * Of the page as rendered, slots included: it changes only when the page does. Its answers' ETags are weak
   * forms of it, one per coding (prerendered-responses.ts): their bytes differ by the nonce.
   */
  etag: string;
  /** The render's headers but the CSP (which names the nonce) and the request id. */
  headers: Array<[string, string]>;
  renderedAt: number;
}

/** A route's prerendered document and the page data client navigation asks for. */
export interface PrerenderedRoute {
  document: PrerenderedPage;
  data: PrerenderedData;
}

/** What a build stores (`prerendered.json` beside the client build), for the server to start with. */
export interface PrerenderedPages {
  buildId: string;
  routes: Record<string, PrerenderedRoute>;
  /** null: this app's not-found page cannot be stored (it shows more of the request than its path). */
  notFound?: PrerenderedPage | null;
}

/** Splits a render made with the slot markers; `status` and `headers` are the render's. */
export function prerenderedPage(html: string, status: number, headers: Array<[string, string]>): PrerenderedPage {
  const { parts, slots } = splitAtSlots(html);
  return {
    status,
    parts,
    slots,
    deflated: deflatePage({ parts, slots }),
    etag: etagOf(html),
    headers,
    renderedAt: Date.now(),
  };
}

const encoder = new TextEncoder();
const decodedParts = new WeakMap<PrerenderedPage, { raw: Uint8Array[]; segments: Bytes[] }>();

function decodedOf(page: PrerenderedPage) {
  let decoded = decodedParts.get(page);
  if (!decoded) {
    decoded = { raw: page.parts.map((p) => encoder.encode(p)), segments: page.deflated.segments.map(fromBase64) };
    decodedParts.set(page, decoded);
  }
  return decoded;
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
const fillings = new WeakMap<PrerenderedPage, Map<string, Filled>>();

/** The slots whose values a filling is told apart by: those the page has, but its nonce and configuration. */
const keyedSlots = new WeakMap<PrerenderedPage, readonly SlotName[]>();

/**
 * What a filling is kept under: the values of the page's own host, path and search slots. A page without a host
 * slot (a shell's, whose host is in its boot script) has one filling whatever Host a request names.
 */
function fillingKey(page: PrerenderedPage, values: SlotValues): string {
  let names = keyedSlots.get(page);
  if (!names) {
    const named = new Set(page.slots.map((slot) => slot.name));
    names = (["host", "path", "search"] as const).filter((name) => named.has(name));
    keyedSlots.set(page, names);
  }
  return names.map((name) => values[name]).join("\n");
}

function filledOf(page: PrerenderedPage, values: SlotValues): Filled {
  let kept = fillings.get(page);
  if (!kept) fillings.set(page, (kept = new Map()));
  const key = fillingKey(page, values);
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
 * is held as UTF-16 and transcoded whole. `after`: what follows the page in the same copy (a shell's holes).
 */
export function bytesOf(page: PrerenderedPage, values: SlotValues, after?: readonly Uint8Array[]): Bytes {
  return withNonce(filledOf(page, values).identity, nonceBytes(values.nonce), after);
}

/** The page as one gzip member, joined from its segments compressed once (gzip-join.ts). */
export function gzipOf(page: PrerenderedPage, values: SlotValues): Bytes {
  const filled = filledOf(page, values);
  filled.gzip ??= gzipTemplate(page, filled.values, decodedOf(page).segments);
  return gzipMember(filled.gzip, filled.identity, nonceBytes(values.nonce));
}
