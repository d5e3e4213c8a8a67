// body.ts: reads an action's or API route's request body within limits and parses it by its content type,
// never throwing for a client's input. The body is read at most once, so an Elysia route using it needs
// `parse: "none"`; nothing past maxBytes is held (see request-body.ts).
import { BodyTimeout, readBody, type BodyPace, type BodyWatch } from "./request-body.ts";
import { type Bytes } from "../request/responses.ts";

/**
 * A form (application/x-www-form-urlencoded or multipart/form-data, files too), any JSON value (application/json),
 * or why not: 400 a malformed body, invalid UTF-8, a charset other than UTF-8, a body that could not be read; 413
 * past maxBytes or maxFields; 415 another or no content type, or a Content-Encoding; 408 a body that falls behind
 * its pace. `message` is plain text that names no secret, safe for the response's body and the log.
 */
export type BodyRead =
  | { readonly ok: true; readonly kind: "form"; readonly form: FormData }
  | { readonly ok: true; readonly kind: "json"; readonly json: unknown }
  | { readonly ok: false; readonly status: 400 | 408 | 413 | 415; readonly message: string };

export interface ActionBodyOptions {
  /** ACTION_MAX_BYTES: the most body bytes read. */
  readonly maxBytes: number;
  /** The most entries (fields and files together) a form may have, counted before a FormData is built. */
  readonly maxFields?: number;
  /** BODY_TIMEOUT_MS, BODY_MIN_RATE, BODY_RATE_GRACE_MS: how fast the body must arrive; any pace when omitted. */
  readonly pace?: BodyPace;
  /** The slot the read holds, which may take it back for another post (admission.ts): then a 408. */
  readonly watch?: BodyWatch;
}

const DEFAULT_MAX_FIELDS = 1000;

const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";
const JSON_TYPE = "application/json";

const refuse = (status: 400 | 408 | 413 | 415, message: string): BodyRead => ({ ok: false, status, message });
const unsupportedType = () => refuse(415, `expected ${FORM}, ${MULTIPART} or ${JSON_TYPE}`);
const tooManyFields = (max: number) => refuse(413, `more than ${max} form fields`);

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export async function readActionBody(request: Request, options: ActionBodyOptions): Promise<BodyRead> {
  const maxFields = options.maxFields ?? DEFAULT_MAX_FIELDS;
  // Checked before reading: a compressed body would have to be inflated, and its size then says nothing.
  const encoding = request.headers.get("content-encoding")?.trim().toLowerCase();
  if (encoding && encoding !== "identity") return refuse(415, `Content-Encoding ${encoding} is not accepted`);
  const contentType = request.headers.get("content-type");
  const { type, params } = parseMediaType(contentType ?? "");
  if (type !== FORM && type !== MULTIPART && type !== JSON_TYPE) return unsupportedType();
  const charset = params.charset?.toLowerCase();
  // A multipart body's charset parameter means nothing (each part may say its own); for the others it
  // says how to read every byte, and only UTF-8 is what browsers send for a UTF-8 page.
  if (type !== MULTIPART && charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    return refuse(400, `charset ${charset} is not accepted; send UTF-8`);
  }
  let bytes: Bytes | undefined;
  try {
    bytes = await readBody(request, options.maxBytes, options.pace, options.watch);
  } catch (error) {
    if (error instanceof BodyTimeout) return refuse(408, error.message);
    return refuse(400, "the body could not be read");
  }
  if (!bytes) return refuse(413, `body larger than ${options.maxBytes} bytes`);
  if (type === JSON_TYPE) return parseJson(bytes);
  if (type === FORM) return parseUrlEncoded(bytes, maxFields);
  return parseMultipart(bytes, contentType!, params.boundary, maxFields);
}

/** `type/subtype` in lower case and its parameters (names in lower case, quotes removed). */
export function parseMediaType(header: string): { type: string; params: Record<string, string | undefined> } {
  const semicolon = header.indexOf(";");
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  const params: Record<string, string | undefined> = Object.create(null);
  if (semicolon !== -1) {
    for (const [, name, value] of header.slice(semicolon).matchAll(/;\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
      const key = name!.toLowerCase();
      // The first of a repeated parameter wins, as in Bun's own multipart reader.
      if (params[key] === undefined) {
        const quoted = /^"(.*)"$/s.exec(value!);
        params[key] = quoted ? quoted[1]!.replace(/\\(.)/g, "$1") : value!.trim();
      }
    }
  }
  return { type, params };
}

function parseJson(bytes: Bytes): BodyRead {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return refuse(400, "the JSON body is not valid UTF-8");
  }
  try {
    return { ok: true, kind: "json", json: JSON.parse(text) };
  } catch {
    return refuse(400, text.trim() === "" ? "the JSON body is empty" : "the body is not valid JSON");
  }
}

const AMP = 0x26;
const PERCENT = 0x25;

const FORM_HEADERS = { "content-type": FORM };

async function parseUrlEncoded(bytes: Bytes, maxFields: number): Promise<BodyRead> {
  // Counted like the URL standard's parser: a field is a non-empty run between `&`s.
  let fields = 0;
  let start = 0;
  // Whether a byte past ASCII may be in the decoded body, raw or as `%8X`…`%FX`: without one it is ASCII,
  // valid UTF-8 as it stands, and the common form post is checked in this one pass.
  let beyondAscii = false;
  for (let i = 0; i <= bytes.length; i++) {
    const byte = bytes[i];
    if (byte === undefined || byte === AMP) {
      if (i > start && ++fields > maxFields) return tooManyFields(maxFields);
      start = i + 1;
    } else if (byte >= 0x80 || (byte === PERCENT && hex(bytes[i + 1]) >= 8)) {
      beyondAscii = true;
    }
  }
  // The URL standard turns invalid UTF-8 (raw or percent-encoded) into U+FFFD without a word. Here it
  // is refused instead, so a visitor's text is stored as sent or not at all. `&` and `=` are ASCII, so
  // the body is valid exactly when every name and value is.
  if (beyondAscii && !isUtf8(percentDecode(bytes))) return refuse(400, "the form body is not valid UTF-8");
  return { ok: true, kind: "form", form: await new Response(bytes, { headers: FORM_HEADERS }).formData() };
}

/** The bytes with every `%XX` turned into its byte; a `%` without two hex digits stays as it is. */
function percentDecode(bytes: Bytes): Uint8Array {
  if (!bytes.includes(PERCENT)) return bytes;
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const high = bytes[i] === PERCENT ? hex(bytes[i + 1]) : -1;
    const low = high === -1 ? -1 : hex(bytes[i + 2]);
    if (low === -1) {
      out[n++] = bytes[i]!;
    } else {
      out[n++] = high * 16 + low;
      i += 2;
    }
  }
  return out.subarray(0, n);
}

function hex(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

async function parseMultipart(
  bytes: Bytes,
  contentType: string,
  boundary: string | undefined,
  maxFields: number,
): Promise<BodyRead> {
  if (!boundary) return refuse(400, "multipart body without a boundary");
  // Every part follows a delimiter and the last one closes the body, so delimiters - 1 bounds the parts
  // before any of them is parsed into memory.
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (occurrences(raw, `--${boundary}`) - 1 > maxFields) return tooManyFields(maxFields);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    return refuse(400, "malformed multipart body");
  }
  let fields = 0;
  for (const [name, value] of form) {
    if (++fields > maxFields) return tooManyFields(maxFields);
    // Bun reads a part's name and text as UTF-8 with U+FFFD for invalid bytes. Text holding U+FFFD that
    // is not in the body as sent was invalid UTF-8 there; text is only searched for when it holds one.
    if (!sentAsIs(raw, name) || (typeof value === "string" && !sentAsIs(raw, value))) {
      return refuse(400, "a multipart field is not valid UTF-8");
    }
  }
  return { ok: true, kind: "form", form };
}

function sentAsIs(raw: Buffer, text: string): boolean {
  return !text.includes("\uFFFD") || raw.includes(text, 0, "utf8");
}

function occurrences(raw: Buffer, needle: string): number {
  const pattern = Buffer.from(needle);
  let count = 0;
  for (let at = raw.indexOf(pattern); at !== -1; at = raw.indexOf(pattern, at + pattern.length)) count++;
  return count;
}
