// note.ts: what a note may hold, checked the same way for the account page's form and the store.
//
// validateNote(input) takes what was typed (a form's value; anything else is not text) and gives
//   { ok: true, text }            trimmed, line ends as "\n": what the store keeps;
//   { ok: false, error, value }   why not, and what was typed (to show it again).
// A note is 1–MAX_NOTE characters after trimming; it may hold line breaks and tabs, not other controls.
//
// Not a *.server.ts module: the form that ships to the browser takes its maxLength from MAX_NOTE.
import { checkText, LINES } from "./text.ts";

export const MAX_NOTE = 200;

export type NoteValidation =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string; readonly value: string };

export function validateNote(input: unknown): NoteValidation {
  const value = typeof input === "string" ? input : "";
  const checked =
    typeof input === "string" || input === undefined || input === null
      ? checkText(value, { label: "Note", max: MAX_NOTE, control: LINES })
      : "Note must be text";
  return typeof checked === "string" ? { ok: false, error: checked, value } : { ok: true, text: checked.text };
}
