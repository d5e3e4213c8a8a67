// page-state.ts: a page's state as the server sent it: the boot state a document carries, and the lines of
// page data.
import { expect } from "bun:test";
import { parse } from "devalue";
import type { TestApp } from "./app.ts";

/** The object the document's boot script puts on window.__BRISK__, evaluated as the browser does. */
export function bootState(html: string) {
  const m = /window\.__BRISK__=(\{.*?\});B\.settle/s.exec(html);
  if (!m) throw new Error("no boot state in the page");
  return new Function(`return ${m[1]}`)();
}

/** The page data of `path`: its status, its first line (the payload) and each streamed line after it. */
export async function pageData(t: TestApp, path: string, init?: RequestInit) {
  const res = await t.request(`/__data${path}`, init);
  expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
  const lines = (await res.text()).trim().split("\n").map((l) => (l.startsWith("[") ? parse(l) : JSON.parse(l)));
  return { status: res.status, head: lines[0], rest: lines.slice(1) };
}
