// readActionBody: every content type it parses, every refusal with its status, and the limits counted while reading.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  readActionBody,
  parseMediaType,
  type BodyRead,
  type ActionBodyOptions,
} from "../../../src/server/bodies/body.ts";
import type { Bytes } from "../../../src/server/request/responses.ts";

const FORM = "application/x-www-form-urlencoded";
const enc = new TextEncoder();

function post(body: BodyInit | null, headers: Record<string, string>): Request {
  return new Request("http://localhost/form", { method: "POST", headers, body });
}

function read(body: BodyInit | null, headers: Record<string, string>, options: Partial<ActionBodyOptions> = {}) {
  return readActionBody(post(body, headers), { maxBytes: 1024, ...options });
}

/** A multipart body with CRLF line ends, as browsers send it. */
function multipart(
  boundary: string,
  parts: Array<{ name: string; value: string | Uint8Array; filename?: string; type?: string }>,
): Bytes {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    const type = part.type === undefined ? "" : `\r\nContent-Type: ${part.type}`;
    chunks.push(
      enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}${type}\r\n\r\n`),
    );
    chunks.push(typeof part.value === "string" ? enc.encode(part.value) : part.value);
    chunks.push(enc.encode("\r\n"));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

/** A body stream that records how many bytes were pulled from it. */
function countedStream(chunks: number, chunkBytes: number) {
  const counter = { pulled: 0, cancelled: false };
  let sent = 0;
  const source: UnderlyingDefaultSource<Uint8Array> = {
    pull(controller) {
      if (sent === chunks) return controller.close();
      sent++;
      counter.pulled += chunkBytes;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x61));
    },
    cancel() {
      counter.cancelled = true;
    },
  };
  // Nothing is pulled ahead of the reader, so `pulled` is what the reader asked for.
  const stream = new ReadableStream(source, { highWaterMark: 0 });
  return { stream, counter };
}

function expectRefused(result: BodyRead, status: number, message: RegExp) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.status as number).toBe(status);
  expect(result.message).toMatch(message);
}

function formOf(result: BodyRead): FormData {
  if (!result.ok || result.kind !== "form") throw new Error(`expected a form, got ${JSON.stringify(result)}`);
  return result.form;
}

describe("readActionBody: what it parses", () => {
  test("an urlencoded body is a FormData, percent-encoded UTF-8 decoded and + as a space", async () => {
    const form = formOf(
      await read("name=Ada+Lovelace&message=%E4%BD%A0%E5%A5%BD&tag=a&tag=b", { "content-type": FORM }),
    );
    expect(form.get("name")).toBe("Ada Lovelace");
    expect(form.get("message")).toBe("你好");
    expect(form.getAll("tag")).toEqual(["a", "b"]);
  });

  test("an urlencoded body of ASCII escapes and raw UTF-8 is read as sent", async () => {
    const form = formOf(await read("note=Hi%21%2c+there%7E&name=Zo%C3%AB&city=Malm\u00f6", { "content-type": FORM }));
    expect(form.get("note")).toBe("Hi!, there~");
    expect(form.get("name")).toBe("Zoë");
    expect(form.get("city")).toBe("Malmö");
  });

  test("an urlencoded body with charset=UTF-8 and upper-case type is read", async () => {
    const form = formOf(await read("a=1", { "content-type": "Application/X-WWW-Form-Urlencoded; Charset=UTF-8" }));
    expect(form.get("a")).toBe("1");
  });

  test("a stray percent sign stays as written, as browsers' URL parser keeps it", async () => {
    expect(formOf(await read("discount=50%&x=%ZZ", { "content-type": FORM })).get("discount")).toBe("50%");
  });

  test("a multipart body gives its text fields and its files with name, type and bytes", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0d, 0x0a]);
    const body = multipart("----brisk7", [
      { name: "name", value: "Ada" },
      { name: "message", value: "line 1\r\nline 2 ✓" },
      { name: "avatar", value: png, filename: "a.png", type: "image/png" },
    ]);
    const form = formOf(await read(body, { "content-type": 'multipart/form-data; boundary="----brisk7"' }));
    expect(form.get("name")).toBe("Ada");
    expect(form.get("message")).toBe("line 1\r\nline 2 ✓");
    const file = form.get("avatar") as File;
    expect(file).toBeInstanceOf(File);
    expect(file.name).toBe("a.png");
    expect(file.type).toStartWith("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
  });

  test("a multipart field that really holds U+FFFD is accepted", async () => {
    const body = multipart("b", [{ name: "text", value: "replacement \uFFFD char" }]);
    expect(formOf(await read(body, { "content-type": "multipart/form-data; boundary=b" })).get("text")).toBe(
      "replacement \uFFFD char",
    );
  });

  test("a file part's bytes may be anything, invalid UTF-8 included", async () => {
    const body = multipart("b", [{ name: "f", value: new Uint8Array([0xff, 0xfe, 0xc0]), filename: "x.bin" }]);
    const file = formOf(await read(body, { "content-type": "multipart/form-data; boundary=b" })).get("f") as File;
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xfe, 0xc0]));
  });

  test.each([
    ['{"name":"Ada","n":[1,2]}', { name: "Ada", n: [1, 2] }],
    ["[1,null]", [1, null]],
    ["42", 42],
    ["null", null],
    ['\uFEFF{"bom":true}', { bom: true }],
  ])("JSON %s is parsed to its value", async (text, value) => {
    const result = await read(text, { "content-type": "application/json; charset=utf-8" });
    expect(result).toEqual({ ok: true, kind: "json", json: value });
  });

  test("a body of exactly maxBytes is read", async () => {
    const result = await read(`a=${"x".repeat(1022)}`, { "content-type": FORM });
    expect(formOf(result).get("a")).toHaveLength(1022);
  });
});

describe("readActionBody: 415 for what it does not parse", () => {
  test.each([
    ["no Content-Type", undefined],
    ["text/plain", "text/plain"],
    ["application/xml", "application/xml"],
    ["a JSON suffix type", "application/merge-patch+json"],
    ["an empty Content-Type", ""],
    ["garbage", ";;;=="],
  ])("%s is 415", async (_, type) => {
    const headers: Record<string, string> = type === undefined ? {} : { "content-type": type };
    expectRefused(
      await read("{}", headers),
      415,
      /expected application\/x-www-form-urlencoded, multipart\/form-data or application\/json/,
    );
  });

  test("a Content-Encoding is 415, before the body is read", async () => {
    const { stream, counter } = countedStream(4, 100);
    expectRefused(
      await read(stream, { "content-type": FORM, "content-encoding": "gzip" }),
      415,
      /Content-Encoding gzip/,
    );
    expect(counter.pulled).toBe(0);
  });

  test("Content-Encoding: identity is the same as none", async () => {
    expect(formOf(await read("a=1", { "content-type": FORM, "content-encoding": "identity" })).get("a")).toBe("1");
  });
});

describe("readActionBody: 400 for a malformed body", () => {
  test.each([
    ["malformed JSON", '{"a":', /not valid JSON/],
    ["an empty JSON body", "", /JSON body is empty/],
    ["JSON with a trailing comma", "[1,]", /not valid JSON/],
  ])("%s is 400", async (_, body, message) => {
    expectRefused(await read(body, { "content-type": "application/json" }), 400, message);
  });

  test("JSON holding invalid UTF-8 is 400", async () => {
    expectRefused(
      await read(new Uint8Array([0x22, 0xff, 0x22]), { "content-type": "application/json" }),
      400,
      /not valid UTF-8/,
    );
  });

  test.each([
    ["percent-encoded", "name=%FF%FE"],
    ["an overlong encoding", "name=%C0%AF"],
    ["a lone surrogate", "name=%ED%A0%80"],
    ["a truncated sequence", "name=%E4%BD"],
    ["lower-case, after ASCII escapes", "note=%21%2C&name=%c3"],
  ])("an urlencoded body with invalid UTF-8 (%s) is 400", async (_, body) => {
    expectRefused(await read(body, { "content-type": FORM }), 400, /form body is not valid UTF-8/);
  });

  test("an urlencoded body with raw invalid UTF-8 bytes is 400", async () => {
    expectRefused(await read(new Uint8Array([0x61, 0x3d, 0xe9]), { "content-type": FORM }), 400, /not valid UTF-8/);
  });

  test.each([FORM, "application/json"])("%s in a charset other than UTF-8 is 400", async (type) => {
    expectRefused(
      await read("a=%E9", { "content-type": `${type}; charset=ISO-8859-1` }),
      400,
      /charset iso-8859-1 is not accepted/,
    );
  });

  test("multipart without a boundary is 400", async () => {
    const body = multipart("b", [{ name: "a", value: "1" }]);
    expectRefused(await read(body, { "content-type": "multipart/form-data" }), 400, /without a boundary/);
  });

  test.each([
    ["another boundary", (b: Bytes) => b, "other"],
    ["a truncated body", (b: Bytes) => b.subarray(0, 30), "b"],
    ["no body at all", () => new Uint8Array(0), "b"],
  ])("multipart with %s is 400", async (_, cut, boundary) => {
    const body = cut(multipart("b", [{ name: "a", value: "1" }]));
    expectRefused(
      await read(body, { "content-type": `multipart/form-data; boundary=${boundary}` }),
      400,
      /malformed multipart/,
    );
  });

  test("a multipart text field holding invalid UTF-8 is 400", async () => {
    const body = multipart("b", [{ name: "name", value: new Uint8Array([0x41, 0xff, 0x42]) }]);
    expectRefused(await read(body, { "content-type": "multipart/form-data; boundary=b" }), 400, /not valid UTF-8/);
  });

  test("a multipart field name holding invalid UTF-8 is 400", async () => {
    const body = Buffer.concat([
      enc.encode('--b\r\nContent-Disposition: form-data; name="n'),
      new Uint8Array([0xfe]),
      enc.encode('"\r\n\r\nvalue\r\n--b--\r\n'),
    ]);
    expectRefused(await read(body, { "content-type": "multipart/form-data; boundary=b" }), 400, /not valid UTF-8/);
  });

  test("a body stream that fails while being read is 400", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    expectRefused(await read(stream, { "content-type": FORM }), 400, /could not be read/);
  });
});

describe("readActionBody: 413, counted while reading", () => {
  test("a Content-Length past maxBytes is 413 without reading a byte", async () => {
    const { stream, counter } = countedStream(4, 1024);
    expectRefused(
      await read(stream, { "content-type": FORM, "content-length": "1025" }),
      413,
      /larger than 1024 bytes/,
    );
    expect(counter.pulled).toBe(0);
  });

  test("a chunked body past maxBytes is 413 and cancelled as soon as the count passes the limit", async () => {
    const { stream, counter } = countedStream(1000, 100);
    expectRefused(await read(stream, { "content-type": "application/json" }), 413, /larger than 1024 bytes/);
    expect(counter.cancelled).toBe(true);
    // The read stops at the first chunk past the limit: never the 100 kB that was on offer.
    expect(counter.pulled).toBe(1100);
  });

  test("a Content-Length that understates the body (only an in-process Request can) is still 413", async () => {
    const { stream } = countedStream(1000, 100);
    expectRefused(await read(stream, { "content-type": FORM, "content-length": "10" }), 413, /larger than 1024 bytes/);
  });

  test("more urlencoded fields than maxFields is 413; empty runs between & do not count", async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}=`).join("&");
    expectRefused(await read(fields(11), { "content-type": FORM }, { maxFields: 10 }), 413, /more than 10 form fields/);
    expect([
      ...formOf(await read(`&&${fields(10)}&&&`, { "content-type": FORM }, { maxFields: 10 })).keys(),
    ]).toHaveLength(10);
  });

  test("more multipart parts than maxFields is 413; exactly maxFields is read", async () => {
    const parts = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, value: "v" }));
    const headers = { "content-type": "multipart/form-data; boundary=b" };
    expectRefused(await read(multipart("b", parts(11)), headers, { maxFields: 10 }), 413, /more than 10 form fields/);
    expect([...formOf(await read(multipart("b", parts(10)), headers, { maxFields: 10 })).keys()]).toHaveLength(10);
  });

  test("files count as fields", async () => {
    const files = Array.from({ length: 3 }, (_, i) => ({ name: "f", value: "x", filename: `${i}.txt` }));
    const headers = { "content-type": "multipart/form-data; boundary=b" };
    expectRefused(await read(multipart("b", files), headers, { maxFields: 2 }), 413, /more than 2 form fields/);
  });

  test("maxFields defaults to 1000", async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`).join("&");
    expect(formOf(await read(fields(1000), { "content-type": FORM }, { maxBytes: 100_000 })).getAll("f999")).toEqual([
      "",
    ]);
    expectRefused(await read(fields(1001), { "content-type": FORM }, { maxBytes: 100_000 }), 413, /more than 1000/);
  });
});

describe("readActionBody over a real socket", () => {
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        const result = await readActionBody(request, { maxBytes: 64 * 1024 });
        if (!result.ok) return new Response(result.message, { status: result.status });
        return Response.json(
          result.kind === "json"
            ? result.json
            : Object.fromEntries(
                [...result.form].map(([k, v]) => [k, typeof v === "string" ? v : `${v.name}: ${v.size} bytes`]),
              ),
        );
      },
    });
  });
  afterAll(() => server.stop(true));

  test("a browser-like urlencoded post is read", async () => {
    const res = await fetch(server.url, {
      method: "POST",
      body: new URLSearchParams({ name: "Ada", message: "hi ✓" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: "Ada", message: "hi ✓" });
  });

  test("a FormData post (multipart, as fetch builds it) is read", async () => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("file", new File(["data"], "d.txt"));
    const res = await fetch(server.url, { method: "POST", body: form });
    expect(await res.json()).toEqual({ name: "Ada", file: "d.txt: 4 bytes" });
  });

  test("a streamed upload past maxBytes is 413", async () => {
    const { stream } = countedStream(200, 1024);
    const res = await fetch(server.url, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
  });

  test("a declared upload past maxBytes is 413", async () => {
    const res = await fetch(server.url, {
      method: "POST",
      body: "x".repeat(65 * 1024),
      headers: { "content-type": FORM },
    });
    expect(res.status).toBe(413);
  });
});

describe("parseMediaType", () => {
  test("lower-cases the type and parameter names, unquotes values, keeps the first of a repeated parameter", () => {
    expect(parseMediaType(' Multipart/Form-Data ; Boundary="a \\"b\\" ;c" ; boundary=second')).toEqual({
      type: "multipart/form-data",
      params: Object.assign(Object.create(null), { boundary: 'a "b" ;c' }),
    });
  });

  test("an unterminated quote is kept as written", () => {
    expect(parseMediaType('multipart/form-data; boundary="abc').params.boundary).toBe('"abc');
  });

  test("a header without parameters has none", () => {
    expect(parseMediaType("application/json")).toEqual({ type: "application/json", params: Object.create(null) });
  });
});
