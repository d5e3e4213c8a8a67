// validateEntry and parseEntryId: the guestbook's rules that the form action, the JSON API and the store share.
import { describe, expect, test } from "bun:test";
import { ENTRY_LIMITS, parseEntryId, validateEntry } from "../../src/app/store/entry.ts";

const form = (fields: Record<string, string | Blob>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

describe("validateEntry", () => {
  test("a valid entry from JSON is trimmed, with CRLF and CR line ends as LF", () => {
    expect(validateEntry({ name: "  Ada Lovelace ", message: "\r\nline 1\r\nline 2\rline 3\n\t" })).toEqual({
      ok: true,
      entry: { name: "Ada Lovelace", message: "line 1\nline 2\nline 3" },
    });
  });

  test("a valid entry from a form's FormData", () => {
    expect(validateEntry(form({ name: "Ada", message: "Hello" }))).toEqual({
      ok: true,
      entry: { name: "Ada", message: "Hello" },
    });
  });

  test("the limits are 80 and 500 characters", () => {
    expect(ENTRY_LIMITS).toEqual({ name: 80, message: 500 });
  });

  test.each([
    ["name", 80, 81],
    ["message", 500, 501],
  ] as const)("%s: %i characters pass, %i do not", (field, max, over) => {
    const other = field === "name" ? { message: "m" } : { name: "n" };
    expect(validateEntry({ ...other, [field]: "x".repeat(max) }).ok).toBe(true);
    const label = field === "name" ? "Name" : "Message";
    expect(validateEntry({ ...other, [field]: "x".repeat(over) })).toMatchObject({
      ok: false,
      errors: { [field]: `${label} must be at most ${max} characters` },
    });
  });

  test("characters are counted as code points: 80 emoji are a valid name", () => {
    expect(validateEntry({ name: "😀".repeat(80), message: "m" }).ok).toBe(true);
    expect(validateEntry({ name: "😀".repeat(81), message: "m" }).ok).toBe(false);
  });

  test("a CRLF counts as one character, as the browser's maxLength counts it", () => {
    expect(validateEntry({ name: "n", message: "x\r\n".repeat(250).slice(0, -2) }).ok).toBe(true);
  });

  test("surrounding spaces do not count towards the limit", () => {
    expect(validateEntry({ name: ` ${"x".repeat(80)} `, message: "m" }).ok).toBe(true);
  });

  test("empty, blank or missing fields are required, each with its own message, and what was typed comes back", () => {
    expect(validateEntry({ name: "   ", message: "" })).toEqual({
      ok: false,
      errors: { name: "Name is required", message: "Message is required" },
      values: { name: "   ", message: "" },
    });
    expect(validateEntry({})).toMatchObject({
      ok: false,
      errors: { name: "Name is required", message: "Message is required" },
    });
    expect(validateEntry(form({ name: "Ada" }))).toEqual({
      ok: false,
      errors: { message: "Message is required" },
      values: { name: "Ada", message: "" },
    });
  });

  test.each([null, undefined, "name=Ada", 42, ["Ada", "Hi"]])(
    "input that is not an object (%p) has both fields missing",
    (input) => {
      expect(validateEntry(input)).toMatchObject({
        ok: false,
        errors: { name: "Name is required", message: "Message is required" },
      });
    },
  );

  test("a field that is not text is refused: a number, an object, a file", () => {
    expect(validateEntry({ name: 42, message: { text: "hi" } })).toEqual({
      ok: false,
      errors: { name: "Name must be text", message: "Message must be text" },
      values: { name: "", message: "" },
    });
    expect(validateEntry(form({ name: new File(["x"], "x.txt"), message: "m" }))).toMatchObject({
      errors: { name: "Name must be text" },
    });
  });

  test.each([
    ["a NUL in the name", { name: "A\u0000da", message: "m" }, "name"],
    ["a line break in the name", { name: "A\nda", message: "m" }, "name"],
    ["a tab in the name", { name: "A\tda", message: "m" }, "name"],
    ["an escape in the message", { name: "n", message: "a\u001b[31mred" }, "message"],
    ["a NUL in the message", { name: "n", message: "a\u0000b" }, "message"],
    ["DEL in the message", { name: "n", message: "a\u007fb" }, "message"],
    ["a lone surrogate", { name: "n", message: "a\ud800b" }, "message"],
  ] as const)("%s cannot be stored", (_, input, field) => {
    const label = field === "name" ? "Name" : "Message";
    expect(validateEntry(input)).toMatchObject({
      ok: false,
      errors: { [field]: `${label} holds characters that cannot be stored` },
    });
  });

  test("a message may hold tabs and line breaks, and any well-formed Unicode", () => {
    expect(validateEntry({ name: "Zoë 李 👩‍💻", message: "a\tb\nc ‮ ﷽ \uFEFF" })).toEqual({
      ok: true,
      entry: { name: "Zoë 李 👩‍💻", message: "a\tb\nc ‮ ﷽" },
    });
  });
});

describe("parseEntryId", () => {
  test.each([
    ["1", 1],
    ["42", 42],
    ["2147483648", 2_147_483_648],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("%s is %i", (segment, id) => {
    expect(parseEntryId(segment)).toBe(id);
  });

  test.each([
    "0",
    "-1",
    "+1",
    "01",
    "1.0",
    "1e3",
    " 1",
    "0x10",
    "",
    "abc",
    "9007199254740992",
    "99999999999999999",
    "１",
  ])("%p is not an id", (segment) => {
    expect(parseEntryId(segment)).toBeUndefined();
  });
});
