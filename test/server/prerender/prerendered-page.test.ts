// A prerendered page: split once where each response's values go, joined per response as text or as one gzip
// member built from pieces compressed once, with every value escaped for where it sits.
import { describe, expect, test } from "bun:test";
import { scriptString } from "../../../src/runtime/script-json.ts";
import { SLOT_MARKERS, htmlOf, type SlotValues } from "../../../src/server/prerender/page-slots.ts";
import { gzipOf, prerenderedPage } from "../../../src/server/prerender/prerendered-page.ts";

const { nonce, host, path, search, config } = SLOT_MARKERS;
const html =
  `<!DOCTYPE html><html><head><style nonce="${nonce}">p{color:red}</style></head><body>` +
  `<p title="${path}">No page at ${path}, asked of ${host}</p>` +
  // As render.tsx writes the boot script: its state as JSON, inside a string the script gives JSON.parse.
  `<script nonce="${nonce}">window.__BRISK__=JSON.parse(${scriptString(`{"path":"${path}","search":"${search}","nonce":"${nonce}","config":${config}}`)})</script>` +
  `<p>${"repeated text that compresses well ".repeat(40)}</p><script nonce="${nonce}" src="/a.js"></script></body></html>`;
const values: SlotValues = {
  nonce: "AAAAAAAAAAAAAAAAAAAAAA==",
  host: "example.com",
  path: "/a&b'c\"<d>\u2028",
  search: "q=<x>&y",
  config: '{"mode":"production","sentry":{"dsn":"https://key@example.com/1","release":"</script><!-- &"}}',
};
const gunzip = (bytes: Uint8Array<ArrayBuffer>) => new TextDecoder().decode(Bun.gunzipSync(bytes));

describe("a prerendered page", () => {
  const page = prerenderedPage(html, 200, [["content-type", "text/html"]]);

  test("fills each value escaped for its place: HTML text and attributes, or JSON inside a script's string", () => {
    const filled = htmlOf(page, values);
    expect(filled).toContain(
      `<p title="/a&amp;b&#x27;c&quot;&lt;d&gt;\u2028">No page at /a&amp;b&#x27;c&quot;&lt;d&gt;\u2028, asked of example.com</p>`,
    );
    const script = /<script nonce="[^"]+">window\.__BRISK__=(JSON\.parse\(.*?\))<\/script>/.exec(filled)![1]!;
    expect(script).not.toMatch(/[<>&\u2028\u2029]/);
    expect(new Function(`return ${script}`)()).toEqual({
      path: values.path,
      search: values.search,
      nonce: values.nonce,
      config: JSON.parse(values.config),
    });
    expect(filled.match(/nonce="AAAAAAAAAAAAAAAAAAAAAA=="/g)).toHaveLength(3);
    expect(filled).not.toContain("brisk0prerender");
  });

  test("its gzip is the filled page, for any values, and smaller than the page", () => {
    for (const v of [
      values,
      { ...values, nonce: "zzzzzzzzzzzzzzzzzzzzzz==", path: "/" },
      { ...values, path: `/${"x".repeat(70_000)}` },
    ]) {
      const gzip = gzipOf(page, v);
      expect(gunzip(gzip)).toBe(htmlOf(page, v));
    }
    expect(gzipOf(page, values).length).toBeLessThan(htmlOf(page, values).length / 2);
  });

  test("a page holding control characters (which stand in for the nonce while compressing) still joins right", () => {
    for (const c of ["\0", "\x01", "\x1b"]) {
      const withControl = prerenderedPage(html.replace("repeated text", `repeated${c}text`), 200, []);
      expect(gunzip(gzipOf(withControl, values))).toBe(htmlOf(withControl, values));
    }
  });

  test("a nonce after the first is a copy of it: thirty scripts cost little more than one", () => {
    const scripts = Array.from({ length: 30 }, (_, i) => `<script nonce="${nonce}">f(${i})</script>`).join("");
    const many = prerenderedPage(`<html><body>${scripts}</body></html>`, 200, []);
    const gzip = gzipOf(many, values);
    expect(gunzip(gzip)).toBe(htmlOf(many, values));
    // Thirty nonces as stored blocks alone would be 30 × 29 bytes.
    expect(gzip.length).toBeLessThan(250);
  });

  test("the ETag follows the page, not the values", () => {
    expect(page.etag).toBe(prerenderedPage(html, 200, []).etag);
    expect(page.etag).not.toBe(prerenderedPage(html.replace("red", "blue"), 200, []).etag);
  });
});
