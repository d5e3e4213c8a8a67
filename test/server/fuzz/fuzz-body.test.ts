// Property tests: whatever a client posts, readActionBody answers a parsed body or a 400, 413 or 415, never
// throws, and what it parses is exactly what was sent.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { readActionBody, type BodyRead } from "../../../src/server/bodies/body.ts";
import type { Bytes } from "../../../src/server/request/responses.ts";
import { fuzzParams, hostileString, tally } from "../../support/fuzz.ts";

const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";
const JSON_TYPE = "application/json";
const MAX_BYTES = 4096;
const MAX_FIELDS = 50;
const enc = new TextEncoder();

async function read(body: Uint8Array, headers: Record<string, string>): Promise<BodyRead> {
  const request = new Request("http://localhost/a", { method: "POST", headers, body: new Uint8Array(body) });
  return readActionBody(request, { maxBytes: MAX_BYTES, maxFields: MAX_FIELDS });
}

/** The outcome as one word for the tally, after checking it is one of the allowed answers. */
function outcome(result: BodyRead): string {
  if (result.ok) return result.kind;
  expect([400, 413, 415]).toContain(result.status);
  expect(result.message).not.toBe("");
  return String(result.status);
}

/** Valid UTF-8, judged by Node's Buffer decoder rather than the TextDecoder the code under test uses. */
const isUtf8 = (bytes: Uint8Array) =>
  Buffer.from(Buffer.from(bytes).toString("utf8"), "utf8").equals(Buffer.from(bytes));

/** Printable header text: a value with NUL, CR or LF cannot travel in an HTTP header at all. */
const headerText = (maxLength: number) =>
  fc.string({ unit: "binary-ascii", maxLength }).map((s) => s.replace(/[\0\r\n]/g, ""));

const contentType = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(FORM, MULTIPART, JSON_TYPE) },
  fc.constantFrom("text/plain", "application/xml", "", "multipart/mixed", "application/json5"),
  fc
    .tuple(
      fc.constantFrom(FORM, MULTIPART, JSON_TYPE, "Multipart/Form-Data", "APPLICATION/JSON"),
      fc.array(
        fc.oneof(
          fc.constantFrom(
            "charset=utf-8",
            "charset=UTF8",
            "charset=latin1",
            'charset="utf-8"',
            "boundary=b",
            'boundary="b"',
            "boundary=",
            "boundary",
            ";",
            "=",
            '"',
          ),
          headerText(16).map((s) => `boundary=${s}`),
          headerText(16),
        ),
        { maxLength: 3 },
      ),
    )
    .map(([type, params]) => [type, ...params].join(";")),
  headerText(40),
);

/** Bytes that look like each kind of body now and then, and like nothing at all otherwise. */
const anyBody = fc.oneof(
  fc.uint8Array({ maxLength: 600 }),
  hostileString({ loneSurrogates: true }).map((s) => enc.encode(s)),
  fc
    .constantFrom(
      "--b\r\n",
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n',
      "a=1&b=%FF",
      "{",
      "[]",
      "--b--",
    )
    .map((s) => enc.encode(s)),
  fc.nat(MAX_BYTES * 2).map((n) => new Uint8Array(n).fill(0x26)),
);

describe("readActionBody, fuzzed", () => {
  test("random bytes under any content type answer a parsed body or a 400, 413 or 415", async () => {
    const seen = tally("body fuzz, any bytes: outcomes");
    await fc.assert(
      fc.asyncProperty(
        contentType,
        anyBody,
        fc.option(fc.constantFrom("gzip", "identity", "br, gzip", ""), { freq: 6 }),
        async (type, body, encoding) => {
          const headers: Record<string, string> = { "content-type": type };
          if (encoding !== null) headers["content-encoding"] = encoding;
          const result = await read(body, headers);
          seen.add(outcome(result));
          if (result.ok && result.kind === "json") expect(isUtf8(body)).toBe(true);
        },
      ),
      fuzzParams(0.5),
    );
    seen.print();
    for (const kind of ["form", "json", "400", "413", "415"]) expect(seen.count(kind)).toBeGreaterThan(0);
  });

  // Names are kept to what browsers send unescaped; values may be any well-formed text, CR and LF included.
  const fieldName = fc.stringMatching(/^[A-Za-z0-9_.\-\[\] ]{1,12}$/);
  const part = fc.oneof(
    fc.record({ name: fieldName, value: hostileString() }),
    fc.record({
      name: fieldName,
      value: fc.uint8Array({ maxLength: 80 }),
      filename: fc.stringMatching(/^[a-z0-9]{1,8}\.[a-z]{1,3}$/),
    }),
  );
  type Part = { name: string; value: string | Uint8Array; filename?: string };

  function multipartBody(boundary: string, parts: Part[]): Bytes {
    const chunks: Uint8Array[] = [];
    for (const p of parts) {
      const file =
        p.filename === undefined ? "" : `; filename="${p.filename}"\r\nContent-Type: application/octet-stream`;
      chunks.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\n\r\n`));
      chunks.push(typeof p.value === "string" ? enc.encode(p.value) : p.value, enc.encode("\r\n"));
    }
    chunks.push(enc.encode(`--${boundary}--\r\n`));
    return new Uint8Array(Buffer.concat(chunks));
  }

  const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,20}$/).map((s) => `----brisk${s}`);

  test("a well-formed multipart body gives back every field and file exactly as sent", async () => {
    const seen = tally("body fuzz, multipart round trip: outcomes");
    await fc.assert(
      fc.asyncProperty(
        boundary,
        fc.oneof(
          fc.array(part, { maxLength: 8 }),
          fc.array(part, { minLength: MAX_FIELDS - 2, maxLength: MAX_FIELDS + 3 }),
        ),
        async (b, parts) => {
          const body = multipartBody(b, parts);
          const result = await read(body, { "content-type": `${MULTIPART}; boundary="${b}"` });
          seen.add(outcome(result));
          if (body.byteLength > MAX_BYTES || parts.length > MAX_FIELDS)
            return expect(result).toMatchObject({ ok: false, status: 413 });
          if (!result.ok || result.kind !== "form") throw new Error(`refused: ${JSON.stringify(result)}`);
          const entries = [...result.form];
          expect(entries.map(([name]) => name)).toEqual(parts.map((p) => p.name));
          for (const [i, [, value]] of entries.entries()) {
            const sent = parts[i]!.value;
            // Bun's multipart reader decodes a text part as TextDecoder does by default: a leading BOM is dropped.
            if (typeof sent === "string") expect(value).toBe(sent.replace(/^\uFEFF/, ""));
            else expect(new Uint8Array(await (value as File).arrayBuffer())).toEqual(sent);
          }
        },
      ),
      fuzzParams(0.25),
    );
    seen.print();
    expect(seen.count("form")).toBeGreaterThan(0);
    expect(seen.count("413")).toBeGreaterThan(0);
  });

  test("a damaged multipart body is parsed, or refused with 400 or 413", async () => {
    const damage = fc.oneof(
      fc.record({ cut: fc.nat() }),
      fc.record({
        at: fc.nat(),
        insert: fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 12 }),
          fc.constantFrom("\r\n", "--", "\r\n\r\n", '"', "\0").map((s) => enc.encode(s)),
        ),
      }),
      fc.record({ flip: fc.nat(), byte: fc.nat(255) }),
      fc.record({ otherBoundary: boundary }),
    );
    const seen = tally("body fuzz, damaged multipart: outcomes");
    await fc.assert(
      fc.asyncProperty(
        boundary,
        fc.array(part, { minLength: 1, maxLength: 8 }),
        fc.array(damage, { minLength: 1, maxLength: 3 }),
        async (b, parts, damages) => {
          let body = multipartBody(b, parts);
          let declared = b;
          for (const d of damages) {
            if ("cut" in d) body = body.subarray(0, d.cut % (body.length + 1));
            else if ("insert" in d)
              body = Buffer.concat([
                body.subarray(0, d.at % (body.length + 1)),
                d.insert,
                body.subarray(d.at % (body.length + 1)),
              ]);
            else if ("flip" in d && body.length > 0) (body = Uint8Array.from(body))[d.flip % body.length] = d.byte;
            else if ("otherBoundary" in d) declared = d.otherBoundary;
          }
          const result = await read(body, { "content-type": `${MULTIPART}; boundary=${declared}` });
          seen.add(outcome(result));
          expect(result.ok || result.status !== 415).toBe(true);
        },
      ),
      fuzzParams(0.5),
    );
    seen.print();
    expect(seen.count("400")).toBeGreaterThan(0);
  });

  test("an urlencoded body is refused with 413 exactly when it has more than maxFields fields", async () => {
    const seen = tally("body fuzz, field counts: outcomes");
    await fc.assert(
      fc.asyncProperty(
        fc.nat(MAX_FIELDS * 2),
        fc.array(fc.nat(3), { maxLength: MAX_FIELDS * 2 }),
        async (fields, gaps) => {
          // Empty runs between `&`s are not fields, so they are scattered in to check they are not counted.
          const body = Array.from({ length: fields }, (_, i) => `${"&".repeat(gaps[i] ?? 0)}f${i}=${i}`).join("&");
          const result = await read(enc.encode(body), { "content-type": FORM });
          seen.add(outcome(result));
          if (fields > MAX_FIELDS) expect(result).toMatchObject({ ok: false, status: 413 });
          else expect(result.ok && result.kind === "form" && [...result.form].length).toBe(fields);
        },
      ),
      fuzzParams(0.25),
    );
    seen.print();
  });

  test("percent-encoded and raw bytes in an urlencoded body are accepted exactly when they are UTF-8, and decode to that text", async () => {
    const seen = tally("body fuzz, urlencoded encodings: outcomes");
    const text = hostileString().map((s) => enc.encode(s));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 40 }), text), fc.boolean(), async (bytes, percent) => {
        // Raw bytes keep clear of the characters that split or recode a form body.
        const raw = bytes.filter((b) => b !== 0x26 && b !== 0x3d && b !== 0x2b && b !== 0x25);
        const value = percent ? [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("") : raw;
        const body = typeof value === "string" ? enc.encode(`v=${value}`) : Buffer.concat([enc.encode("v="), value]);
        const sent = percent ? bytes : raw;
        const result = await read(body, { "content-type": FORM });
        seen.add(outcome(result));
        if (isUtf8(sent))
          expect(result.ok && result.kind === "form" && result.form.get("v")).toBe(Buffer.from(sent).toString("utf8"));
        else expect(result).toMatchObject({ ok: false, status: 400 });
      }),
      fuzzParams(0.5),
    );
    seen.print();
    expect(seen.count("400")).toBeGreaterThan(0);
    expect(seen.count("form")).toBeGreaterThan(0);
  });

  test("any JSON value, however spaced, is parsed back to itself", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom(undefined, 1, "\t"), async (value, space) => {
        const result = await read(enc.encode(JSON.stringify(value, null, space)), { "content-type": JSON_TYPE });
        expect(result).toEqual({ ok: true, kind: "json", json: JSON.parse(JSON.stringify(value)) });
      }),
      fuzzParams(0.25),
    );
  });
});
