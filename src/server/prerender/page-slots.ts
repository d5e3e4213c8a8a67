// page-slots.ts: a page rendered with markers where each response's own values go (its nonce, host, path,
// search, configuration), split there once, and filled per response with each value escaped for its place.
import { scriptString } from "../../runtime/script-json.ts";

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
export interface Slot {
  name: SlotName;
  inScript: boolean;
}

/** A page split at its slots. */
export interface SlottedPage {
  /** The HTML between the slots: `slots[i]` goes after `parts[i]`. */
  parts: string[];
  slots: Slot[];
}

const MARKER = new RegExp(
  `(${Object.values(WRITTEN)
    .map((m) => m.replace(/[.\\]/g, "\\$&"))
    .join("|")})`,
);
const NAME_OF = new Map<string, SlotName>(Object.entries(WRITTEN).map(([name, marker]) => [marker, name as SlotName]));

/** Splits a render made with the slot markers. */
export function splitAtSlots(html: string): SlottedPage {
  const pieces = html.split(MARKER);
  const parts: string[] = [];
  const slots: Slot[] = [];
  let offset = 0;
  for (const [i, piece] of pieces.entries()) {
    if (i % 2 === 0) parts.push(piece);
    else
      slots.push({
        name: NAME_OF.get(piece)!,
        inScript: html.lastIndexOf("<script", offset) > html.lastIndexOf("</script>", offset),
      });
    offset += piece.length;
  }
  return { parts, slots };
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

function fills(page: Pick<SlottedPage, "slots">, values: SlotValues): string[] {
  return page.slots.map(({ name, inScript }) => escaped(name, values[name], inScript));
}

const encoder = new TextEncoder();

/** The server's configuration is the same for every response: kept encoded. */
let configBytes: { json: string; bytes: Uint8Array } | undefined;

/** The filled values as UTF-8: every nonce slot the one array `nonce`, the configuration encoded once. */
export function encodedFills(
  page: Pick<SlottedPage, "slots">,
  values: SlotValues,
  nonce: Uint8Array = encoder.encode(values.nonce),
): Uint8Array[] {
  const filled = fills(page, values);
  if (configBytes?.json !== values.config)
    configBytes = { json: values.config, bytes: encoder.encode(inScriptString(values.config)) };
  const config = configBytes.bytes;
  return page.slots.map(({ name }, i) =>
    name === "nonce" ? nonce : name === "config" ? config : encoder.encode(filled[i]!),
  );
}

export function htmlOf(page: SlottedPage, values: SlotValues): string {
  const filled = fills(page, values);
  let html = "";
  for (const [i, part] of page.parts.entries()) html += part + (filled[i] ?? "");
  return html;
}
