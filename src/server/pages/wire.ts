// wire.ts: loader data, action data and streamed values as the browser gets them: as JSON when JSON carries
// them exactly (most pages, at JSON's native speed), else in devalue's form (JSON too), which keeps Date, Map,
// Set, BigInt, URL, undefined, NaN, ±Infinity, -0 and repeated references. Either is read with JSON.parse, on
// the document as in page data, so a key is a key whatever its name (`__proto__` too). What neither can carry
// fails here, on the server, naming where it is, instead of as a hydration crash in the browser.
import { stringify } from "devalue";
import { PROTO_KEY_REDUCERS } from "../../runtime/own-proto-key.ts";
import { scriptString } from "../../runtime/script-json.ts";

/** The browser's half of the codec: a chunk of its own, which a page waits for only when its data needs it. */
export const CODEC_MODULE = "src/runtime/browser/codec.ts";

/** What the codec carries that JSON does not; anything else that is not a plain object or array cannot go. */
const RICH = new Set<unknown>([
  Date.prototype,
  Map.prototype,
  Set.prototype,
  URL.prototype,
  URLSearchParams.prototype,
  RegExp.prototype,
]);

function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  if (value instanceof Promise) return "a promise below the top level (only a loader's top-level promises stream)";
  return `an instance of ${(value as object).constructor?.name ?? "a class"}`;
}

/** The path of a value, as code would read it: `data.items[3].when`. */
function pathOf(keys: ReadonlyArray<string | number>): string {
  return keys
    .map((key) =>
      typeof key === "number" ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`,
    )
    .join("");
}

/** One walk of needsCodec: the objects seen so far, and the keys down to the value being looked at. */
interface Walk {
  what: string;
  seen: Set<object>;
  keys: Array<string | number>;
}

/**
 * Whether `value` needs the codec (true) or JSON carries it exactly (false); throws an Error naming `what`
 * and the key of the first value that cannot be sent at all. A property whose value is undefined reads the
 * same when JSON leaves it out, so it alone does not need the codec.
 */
export function needsCodec(value: unknown, what: string): boolean {
  return richIn(value, false, { what, seen: new Set(), keys: [] });
}

function unsendable(walk: Walk, v: unknown): Error {
  return new Error(`${walk.what} cannot be sent to the browser: ${describe(v)} at data${pathOf(walk.keys)}`);
}

/**
 * Module functions and for…in rather than closures and Object.keys: this walks every value of every page's
 * data, and an array of keys per object was most of what it allocated (bench/README.md, issue 30).
 */
function richIn(v: unknown, inObject: boolean, walk: Walk): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return false;
    case "number":
      return !Number.isFinite(v) || Object.is(v, -0);
    case "bigint":
      return true;
    case "undefined":
      return !inObject;
    case "object":
      return v === null ? false : richObject(v, walk);
    default:
      throw unsendable(walk, v);
  }
}

function richObject(v: object, walk: Walk): boolean {
  // A repeated object keeps its identity only through the codec (and a cycle only goes through it).
  if (walk.seen.has(v)) return true;
  walk.seen.add(v);
  const { keys } = walk;
  let rich = false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      keys.push(i);
      rich = richIn(v[i], false, walk) || rich;
      keys.pop();
    }
    return rich;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) {
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      keys.push(key);
      rich = richIn((v as Record<string, unknown>)[key], true, walk) || rich;
      keys.pop();
    }
    return rich;
  }
  if (RICH.has(proto)) {
    if (v instanceof Map || v instanceof Set) {
      for (const entry of v instanceof Map ? [...v.keys(), ...v.values()] : v) richIn(entry, false, walk);
    }
    return true;
  }
  if (ArrayBuffer.isView(v)) return true;
  throw unsendable(walk, v);
}

/**
 * The value as the browser reads it: JSON (an object) or the codec's form (an array); `rich` is what
 * needsCodec said of it, when that was asked already, else it is asked here.
 */
export function wireText(value: unknown, rich = needsCodec(value, "a value sent to the browser")): string {
  return rich ? stringify(value, PROTO_KEY_REDUCERS) : JSON.stringify(value);
}

/**
 * The value as a JavaScript expression an inline <script> may hold: JSON.parse of wireText as a string, so
 * no key becomes a prototype as it would in an object literal. `rich` as for wireText.
 */
export function scriptValue(value: unknown, rich?: boolean): string {
  return `JSON.parse(${scriptString(wireText(value, rich))})`;
}

/** The value as one line of page data; `rich` as for wireText. */
export function wireLine(value: unknown, rich?: boolean): string {
  return `${wireText(value, rich)}\n`;
}
