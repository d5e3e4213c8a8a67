// /examples/preview, a route without a page that answers HTML of its own: through the server in-process, the
// document's security headers a rendered page gets (its CSP without a nonce), and the visitor's text escaped.
import { beforeAll, expect, test } from "bun:test";
import { serveApp, type ServedApp } from "brisk/test";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp();
});

test("200 text/html with CSP (frame-ancestors 'none', no script), COOP and Referrer-Policy", async () => {
  const res = await t.request("/examples/preview?name=Ada&message=Hello");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const csp = res.headers.get("content-security-policy")!.split("; ");
  expect(csp).toEqual(
    expect.arrayContaining(["script-src 'none'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'"]),
  );
  expect(csp.join("; ")).not.toContain("nonce");
  expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  const html = await res.text();
  expect(html).toContain('<p id="preview-name">Ada</p>');
  expect(html).toContain('<blockquote id="preview-message">Hello</blockquote>');
});

test("what the visitor typed is text, never markup, and no longer than an entry may be", async () => {
  const name = `<img src=x onerror=alert(1)> & "Ada"${"x".repeat(100)}`;
  const message = "<script>alert(1)</script>\nsecond line";
  const html = await (await t.request(`/examples/preview?${new URLSearchParams({ name, message })}`)).text();
  const shown = /<p id="preview-name">([^<]*)<\/p>/.exec(html)?.[1];
  expect(shown).toStartWith("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Ada&quot;");
  expect(shown!.replace(/&[a-z]+;/g, "_")).toHaveLength(80);
  expect(html).toContain(
    '<blockquote id="preview-message">&lt;script&gt;alert(1)&lt;/script&gt;<br>second line</blockquote>',
  );
  expect(html).not.toMatch(/<script|<img/);
});

test("without a query it previews a placeholder entry", async () => {
  const html = await (await t.request("/examples/preview")).text();
  expect(html).toContain('<p id="preview-name">Someone</p>');
});
