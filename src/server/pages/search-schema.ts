// search-schema.ts: parses a request's search by a route's `search` schema (a TypeBox object): each field read
// from the URL, converted and checked, its default where it is missing or invalid. What cannot be parsed is a bad
// request (400) naming the field, readable by the visitor.
import { TransformKind, type TObject, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Outcome } from "../../runtime/outcome.ts";
import type { RouteMatch } from "../../runtime/route-tree.ts";
import type { PageScope } from "./page-scope.ts";

/** A search as a route's schema parses it: the query its loaders and components read, or the bad request. */
export type ParsedSearch = { query: Record<string, unknown> } | { refusal: Outcome };

/** One field of a schema, worked out once per schema: what every request's parse reads. */
interface Field {
  key: string;
  schema: TSchema;
  /** Every value of the key, not just the first. */
  list: boolean;
  required: boolean;
  /** Has a `default`, which a missing or invalid value takes. */
  defaulted: boolean;
  /** What the field takes, in words; undefined where TypeBox's own message says it better. */
  expected: string | undefined;
}

const fieldsOf = new WeakMap<TObject, Field[]>();

export function parseSearch(schema: TObject, search: URLSearchParams): ParsedSearch {
  let fields = fieldsOf.get(schema);
  if (!fields) fieldsOf.set(schema, (fields = derive(schema)));
  const query: Record<string, unknown> = {};
  // Only the schema's keys are read: a search of thousands of other parameters costs no more than it does anyway.
  for (const field of fields) {
    const { key, schema } = field;
    const raw = field.list ? search.getAll(key) : search.get(key);
    if (raw === null || (field.list && raw.length === 0)) {
      if (field.defaulted) query[key] = copied(schema.default);
      else if (field.required) return refused(key, "required");
      continue;
    }
    const value = decoded(schema, raw);
    if (!(value instanceof Refused)) query[key] = plain(value, key);
    else if (field.defaulted) query[key] = copied(schema.default);
    else return refused(key, field.expected === undefined ? lowerFirst(value.why) : `expected ${field.expected}`);
  }
  return { query };
}

function derive(schema: TObject): Field[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([key, field]) => ({
    key,
    schema: field,
    list: field.type === "array",
    required: required.has(key),
    defaulted: "default" in field,
    expected: expected(field),
  }));
}

/** A value the schema refuses, with TypeBox's word for why. */
class Refused {
  constructor(readonly why: string) {}
}

/** The raw value converted (TypeBox's Convert: "2" to 2, "true" to true), checked, and decoded (Elysia's `t.Numeric`). */
function decoded(schema: TSchema, raw: string | string[]): unknown {
  const converted = Value.Convert(schema, raw);
  try {
    return Value.Decode(schema, converted);
  } catch {
    return new Refused(Value.Errors(schema, converted).First()?.message ?? "Invalid");
  }
}

function refused(key: string, problem: string): ParsedSearch {
  return { refusal: new Outcome("bad-request", undefined, undefined, `${key}: ${problem}`) };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A default is the schema's own object: each request gets its own copy of a list, which a loader might change. */
function copied(value: unknown): unknown {
  return Array.isArray(value) ? [...value] : value;
}

function isScalar(value: unknown): boolean {
  return (
    typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))
  );
}

/**
 * The parse goes to the page as JSON, and the browser reads the same: a field whose decode makes anything else
 * (`t.Date`) is a mistake of the app's, a plain Error, rather than a value the two sides would read differently.
 */
function plain(value: unknown, key: string): unknown {
  if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) return value;
  throw new Error(
    `The search field "${key}" parses to something JSON does not carry: a search schema takes strings, numbers, booleans, literals and arrays of them`,
  );
}

/** What a schema takes, in words: `"new" or "old"`, `an integer, at least 1`; undefined where it is no simple kind. */
function expected(schema: TSchema): string | undefined {
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return oneOf(schema.enum.map((value) => JSON.stringify(value)));
  if (Array.isArray(schema.anyOf)) {
    const members = schema.anyOf as TSchema[];
    // Elysia's t.Numeric and t.Integer: a string that reads as a number, or a number; the number says what it takes.
    const number = members.find((member) => member.type === "number" || member.type === "integer");
    if (number && TransformKind in schema) return expected(number);
    const each = members.map(expected);
    return each.every((text) => text !== undefined) ? oneOf(each as string[]) : undefined;
  }
  switch (schema.type) {
    case "number":
      return `a number${range(schema)}`;
    case "integer":
      return `an integer${range(schema)}`;
    case "boolean":
      return "true or false";
    case "array": {
      const item = expected(schema.items as TSchema);
      return item === undefined ? undefined : `${item} for each value`;
    }
    default:
      return undefined;
  }
}

function oneOf(choices: string[]): string {
  return choices.length < 2 ? (choices[0] ?? "nothing") : `${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}`;
}

function range({ minimum, maximum, exclusiveMinimum, exclusiveMaximum }: TSchema): string {
  const bounds: string[] = [];
  if (minimum !== undefined) bounds.push(`at least ${minimum}`);
  if (exclusiveMinimum !== undefined) bounds.push(`above ${exclusiveMinimum}`);
  if (maximum !== undefined) bounds.push(`at most ${maximum}`);
  if (exclusiveMaximum !== undefined) bounds.push(`below ${exclusiveMaximum}`);
  return bounds.length ? `, ${bounds.join(" and ")}` : "";
}

/**
 * The first level of `match` whose search its schema refuses, and why (a bad request, or a schema whose parse the
 * page cannot carry): the page ends there, before any action or loader runs. Each parse is kept in `scope`.
 */
export function refusedSearch(match: RouteMatch, scope: PageScope): { depth: number; error: unknown } | undefined {
  for (let depth = 0; depth < match.levels.length; depth++) {
    const schema = match.levels[depth]!.node.route.search;
    if (!schema) continue;
    try {
      const parsed = scope.parsed(schema);
      if ("refusal" in parsed) return { depth, error: parsed.refusal };
    } catch (error) {
      return { depth, error };
    }
  }
  return undefined;
}
