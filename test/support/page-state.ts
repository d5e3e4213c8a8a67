// page-state.ts: a page's state as the server sent it: the boot state a document carries, the settlements its
// streamed scripts queue, and the lines of page data.
import { expect } from "bun:test";
import { revive } from "../../src/runtime/browser/codec.ts";
import type { ServedApp } from "brisk/test";

/** The expression a document's boot script puts on window.__BRISK__ (render.tsx), before it imports the page's modules. */
const BOOT = /<script nonce="[^"]*" id="_R_">(window\.__BRISK__=(JSON\.parse\('(?:[^'\\]|\\.)*'\)));[^<]*<\/script>/;
/** What one streamed value's script pushes on the page's queue (deferred.tsx). */
const SETTLE =
  /<script nonce="[^"]*">\(Array\.isArray\(self\.__BRISK_Q\)\?self\.__BRISK_Q:self\.__BRISK_Q=\[\]\)\.push\((JSON\.parse\('(?:[^'\\]|\\.)*'\))\)<\/script>/g;

/** Evaluated as the browser does, then read as the client entry does (browser/boot.ts): the codec's form revived. */
const evaluate = (expression: string) => new Function(`return ${expression}`)();

/** The boot state on window.__BRISK__ once the client entry has read it. */
export function bootState(html: string) {
  const m = BOOT.exec(html);
  if (!m) throw new Error("no boot state in the page");
  const state = evaluate(m[2]!);
  return { ...state, page: revive(state.page) };
}

/** The text of the document's boot script. */
export function bootScript(html: string): string {
  const m = BOOT.exec(html);
  if (!m) throw new Error("no boot state in the page");
  return m[1]!;
}

/** The settlements the document's streamed scripts queue, in document order, as the client entry reads them. */
export const settledInScripts = (html: string) => [...html.matchAll(SETTLE)].map((m): any => revive(evaluate(m[1]!)));

/** The page data of `path`: its status, its first line (the payload) and each streamed line after it. */
export async function pageData(t: ServedApp, path: string, init?: RequestInit) {
  const res = await t.request(`/__data${path}`, init);
  expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
  const lines = (await res.text())
    .trim()
    .split("\n")
    .map((l): any => revive(JSON.parse(l)));
  return { status: res.status, head: lines[0], rest: lines.slice(1) };
}
