// accept.test.ts: whether an Accept header takes HTML rather than JSON, read with its q-values.
import { expect, test } from "bun:test";
import { acceptsHtml } from "../../../src/server/http/accept.ts";

const withAccept = (accept?: string) =>
  new Request("http://localhost/", { headers: accept === undefined ? {} : { accept } });

test.each([
  ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true],
  ["text/html", true],
  ["TEXT/HTML", true],
  ["Text/Html; charset=utf-8", true],
  ["application/xhtml+xml", true],
  ["text/*", true],
  ["text/html;q=0.5, application/json;q=0.4", true],
  ["text/html,*/*", true],
  ["text/*, */*", true],
  ["text/html;q=0.8, */*;q=0.8", true],
  ["text/html;q=0, application/json", false],
  ["text/html;q=0, */*", false],
  ["text/html;q=0, application/xhtml+xml;q=0", false],
  ["application/json, text/html;q=0.9", false],
  ["application/json, text/html", false],
  ["*/*", false],
  ["text/*, application/json", false],
  ["*/*, text/html;q=0", false],
  ["application/json", false],
  ["application/x-ndjson", false],
  ["text/htmlx, xtext/html", false],
  ["text/html;q=abc", false],
  ["text/html;q=2", false],
  ["", false],
] as const)("%p takes HTML: %p", (accept, html) => {
  expect(acceptsHtml(withAccept(accept))).toBe(html);
});

test("no Accept header at all is JSON", () => {
  expect(acceptsHtml(withAccept())).toBe(false);
});
