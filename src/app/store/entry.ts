// entry.ts: what a guestbook entry may hold, checked the same way for the form action, the JSON API and the store.
//
// validateEntry(input) takes a form's FormData or a JSON body's value and gives
//   { ok: true, entry }            name and message trimmed, line ends as "\n": what the store keeps;
//   { ok: false, errors, values }  one message per failing field, and what was typed (to show it again).
// A name is 1–80 characters, a message 1–500, counted in code points after trimming (an emoji is one);
// neither may hold control characters (a message may hold line breaks and tabs) or lone surrogates,
// which PostgreSQL's UTF-8 text cannot store. ENTRY_LIMITS gives the page its maxLength attributes.
//
// Not a *.server.ts module: the page's form, which ships to the browser, imports the limits and may show
// the same messages, and nothing here is secret. The store imports it too, so nothing unchecked is kept.
import { checkText, LINES, ONE_LINE } from "./text.ts";

export const ENTRY_LIMITS = { name: 80, message: 500 } as const;

export type EntryField = keyof typeof ENTRY_LIMITS;

export interface NewEntry {
  readonly name: string;
  readonly message: string;
}

export type EntryErrors = Partial<Record<EntryField, string>>;

export type EntryValidation =
  | { readonly ok: true; readonly entry: NewEntry }
  | { readonly ok: false; readonly errors: EntryErrors; readonly values: NewEntry };

const LABELS: Record<EntryField, string> = { name: "Name", message: "Message" };

const CONTROL = { name: ONE_LINE, message: LINES } as const;

export function validateEntry(input: unknown): EntryValidation {
  const errors: EntryErrors = {};
  const values = { name: "", message: "" };
  const entry = { name: "", message: "" };
  for (const field of ["name", "message"] as const) {
    const raw = fieldOf(input, field);
    if (typeof raw === "string") values[field] = raw;
    const checked =
      typeof raw === "string" || raw === undefined
        ? checkText(raw ?? "", { label: LABELS[field], max: ENTRY_LIMITS[field], control: CONTROL[field] })
        : `${LABELS[field]} must be text`;
    if (typeof checked === "string") errors[field] = checked;
    else entry[field] = checked.text;
  }
  return Object.keys(errors).length === 0 ? { ok: true, entry } : { ok: false, errors, values };
}

function fieldOf(input: unknown, field: EntryField): unknown {
  if (input instanceof FormData) return input.get(field) ?? undefined;
  if (typeof input === "object" && input !== null && !Array.isArray(input))
    return (input as Record<string, unknown>)[field];
  return undefined;
}

/** The entry id in a URL segment: a positive whole number written plainly (no sign, no leading zero). */
export function parseEntryId(segment: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(segment)) return undefined;
  const id = Number(segment);
  return Number.isSafeInteger(id) ? id : undefined;
}
