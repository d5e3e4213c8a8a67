// entry.ts: what a guestbook entry may hold, checked the same way by the page's action and by the reference's
// hand-written post (bench/reference-server.tsx): a name of 1–80 and a message of 1–500 characters (code
// points, after trimming; line ends as "\n"). Not a *.server.ts module: the page's form reads the limits.
export const ENTRY_LIMITS = { name: 80, message: 500 } as const;

type Field = keyof typeof ENTRY_LIMITS;
export type NewEntry = Record<Field, string>;
export type EntryErrors = Partial<Record<Field, string>>;

export type EntryValidation = { ok: true; entry: NewEntry } | { ok: false; errors: EntryErrors; values: NewEntry };

/** A form's fields, or a JSON body's. */
export function validateEntry(input: FormData | unknown): EntryValidation {
  const entry: NewEntry = { name: "", message: "" };
  const values: NewEntry = { name: "", message: "" };
  const errors: EntryErrors = {};
  for (const field of ["name", "message"] as const) {
    const raw =
      input instanceof FormData
        ? input.get(field)
        : typeof input === "object" && input
          ? (input as Record<string, unknown>)[field]
          : undefined;
    if (typeof raw !== "string") {
      errors[field] = `${field} is required`;
      continue;
    }
    values[field] = raw;
    const text = raw.replace(/\r\n?/g, "\n").trim();
    const length = [...text].length;
    if (length === 0 || length > ENTRY_LIMITS[field])
      errors[field] = `${field} must be 1 to ${ENTRY_LIMITS[field]} characters`;
    else entry[field] = text;
  }
  return Object.keys(errors).length === 0 ? { ok: true, entry } : { ok: false, errors, values };
}
