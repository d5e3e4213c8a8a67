// wire.ts: loader data, action data and streamed values as the browser gets them: as JSON when JSON carries
// them exactly (most pages, at JSON's native speed), else in devalue's form (JSON too), which keeps Date, Map,
// Set, BigInt, URL, undefined, NaN, ±Infinity, -0 and repeated references. Either is read with JSON.parse, on
// the document as in page data, so a key is a key whatever its name (`__proto__` too). What neither can carry
// fails here, on the server, naming where it is, instead of as a hydration crash in the browser.
import { stringify } from "devalue";
import { PROTO_KEY_REDUCERS } from "../../runtime/own-proto-key.ts";
import { scriptJson } from "../../runtime/script-json.ts";

/** The browser's half of the codec: a chunk of its own, which a page waits for only when its data needs it. */
export const CODEC_MODULE = "src/runtime/browser/codec.ts";

/** What the codec carries that JSON does not; anything else that is not a plain object or array cannot go. */
const RICH = new Set<unknown>([Date.prototype, Map.prototype, Set.prototype, URL.prototype, URLSearchParams.prototype, RegExp.prototype]);

function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  if (value instanceof Promise) return "a promise below the top level (only a loader's top-level promises stream)";
  return `an instance of ${(value as object).constructor?.name ?? "a class"}`;
}

/** The path of a value, as code would read it: `data.items[3].when`. */
function pathOf(keys: ReadonlyArray<string | number>): string {
  return keys.map((key) => (typeof key === "number" ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`)).join("");
}

/**
 * Whether `value` needs the codec (true) or JSON carries it exactly (false); throws an Error naming `what`
 * and the key of the first value that cannot be sent at all. A property whose value is undefined reads the
 * same when JSON leaves it out, so it alone does not need the codec.
 */
export function needsCodec(value: unknown, what: string): boolean {
  const keys: Array<string | number> = [];
  const seen = new Set<object>();
  let rich = false;
  const walk = (v: unknown, inObject: boolean): void => {
    switch (typeof v) {
      case "string":
      case "boolean":
        return;
      case "number":
        if (!Number.isFinite(v) || Object.is(v, -0)) rich = true;
        return;
      case "bigint":
        rich = true;
        return;
      case "undefined":
        if (!inObject) rich = true;
        return;
      case "object": {
        if (v === null) return;
        // A repeated object keeps its identity only through the codec (and a cycle only goes through it).
        if (seen.has(v)) return void (rich = true);
        seen.add(v);
        const proto = Object.getPrototypeOf(v);
        if (Array.isArray(v)) {
          v.forEach((item, i) => {
            keys.push(i);
            walk(item, false);
            keys.pop();
          });
        } else if (proto === Object.prototype || proto === null) {
          for (const key of Object.keys(v)) {
            keys.push(key);
            walk((v as Record<string, unknown>)[key], true);
            keys.pop();
          }
        } else if (RICH.has(proto)) {
          rich = true;
          if (v instanceof Map || v instanceof Set) {
            for (const entry of v instanceof Map ? [...v.keys(), ...v.values()] : v) walk(entry, false);
          }
        } else if (ArrayBuffer.isView(v)) {
          rich = true;
        } else {
          throw new Error(`${what} cannot be sent to the browser: ${describe(v)} at data${pathOf(keys)}`);
        }
        return;
      }
      default:
        throw new Error(`${what} cannot be sent to the browser: ${describe(v)} at data${pathOf(keys)}`);
    }
  };
  walk(value, false);
  return rich;
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
  return `JSON.parse(${scriptJson(wireText(value, rich))})`;
}

/** The value as one line of page data; `rich` as for wireText. */
export function wireLine(value: unknown, rich?: boolean): string {
  return `${wireText(value, rich)}\n`;
}
