// validateNote: the rule a note's text follows, for the account page's form and the store alike.
import { expect, test } from "bun:test";
import { MAX_NOTE, validateNote } from "../../src/app/store/note.ts";

test("a note is trimmed, with CRLF and CR line ends as LF; tabs and line breaks stay inside it", () => {
  expect(validateNote("  line 1\r\nline 2\rline\t3 \n")).toEqual({ ok: true, text: "line 1\nline 2\nline\t3" });
});

test(`1 to ${MAX_NOTE} characters, counted as code points after trimming`, () => {
  expect(MAX_NOTE).toBe(200);
  expect(validateNote(` ${"😀".repeat(MAX_NOTE)} `)).toEqual({ ok: true, text: "😀".repeat(MAX_NOTE) });
  const over = "x".repeat(MAX_NOTE + 1);
  expect(validateNote(over)).toEqual({ ok: false, error: "Note must be at most 200 characters", value: over });
  expect(validateNote(" \n\t ")).toEqual({ ok: false, error: "Note is required", value: " \n\t " });
});

test("nothing typed, or something that is not text, is refused with its reason", () => {
  expect(validateNote(undefined)).toEqual({ ok: false, error: "Note is required", value: "" });
  expect(validateNote(null)).toEqual({ ok: false, error: "Note is required", value: "" });
  expect(validateNote(new File(["x"], "x.txt"))).toEqual({ ok: false, error: "Note must be text", value: "" });
  expect(validateNote(42)).toEqual({ ok: false, error: "Note must be text", value: "" });
});

test("control characters other than tab and line breaks, and lone surrogates, cannot be stored", () => {
  for (const text of ["a\u0000b", "a\u001bb", "a\u007fb", "a\ud800b"]) {
    expect(validateNote(text)).toEqual({
      ok: false,
      error: "Note holds characters that cannot be stored",
      value: text,
    });
  }
});
