// text.ts: the check every text the example store keeps goes through: trimmed, line ends as "\n", within a length
// in code points (an emoji is one), without characters that cannot be stored.
//
// Not a *.server.ts module: forms that ship to the browser use the same rules (entry.ts, note.ts).

/** C0 controls and DEL: nothing a one-line field may hold. */
export const ONE_LINE = /[\u0000-\u001f\u007f]/;
/** The same, but for "\n" and "\t": what a multi-line field may not hold. */
export const LINES = /[\u0000-\u0008\u000b-\u001f\u007f]/;

export interface TextRule {
  /** How the message names the field: "Name", "Note". */
  readonly label: string;
  readonly max: number;
  /** ONE_LINE or LINES. */
  readonly control: RegExp;
}

/**
 * The text as kept, or the reason it cannot be. Lone surrogates are refused with the controls: PostgreSQL's
 * UTF-8 text cannot store them.
 */
export function checkText(raw: string, { label, max, control }: TextRule): { text: string } | string {
  // Browsers send a textarea's line breaks as CRLF but count them as one character for maxLength.
  const text = raw.replace(/\r\n?/g, "\n").trim();
  if (text === "") return `${label} is required`;
  if (!text.isWellFormed() || control.test(text)) return `${label} holds characters that cannot be stored`;
  let length = 0;
  for (const _ of text) if (++length > max) return `${label} must be at most ${max} characters`;
  return { text };
}
