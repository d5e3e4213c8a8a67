// Property tests: loader data leaves the server as JSON text in a script (scriptString, what the boot script and
// every streamed value's script give JSON.parse) and as page data, and comes back exactly. Lone surrogates cannot
// travel in a URL, so they are checked on scriptString here and in Chromium in test/e2e/serialization.test.ts.
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { createContext, runInContext } from "node:vm";
import { scriptString } from "../../../src/runtime/script-json.ts";
import { serveApp, type ServedApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";
import { fuzzParams, hostileString } from "../../support/fuzz.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
});

/** The text of every <script> element, as an HTML tokenizer (lol-html, as in browsers) splits the page. */
async function scriptTexts(html: string): Promise<string[]> {
  const scripts: string[] = [];
  let current = "";
  const rewriter = new HTMLRewriter().on("script", {
    element(el) {
      current = "";
      el.onEndTag(() => void scripts.push(current));
    },
    text(chunk) {
      current += chunk.text;
    },
  });
  await rewriter.transform(new Response(html)).text();
  return scripts;
}

/**
 * A JS realm of its own, as a page is: nothing of this test's globals leaks into what the scripts see. Its page
 * has not painted yet, so the boot script's import of the entry waits (on an observer that never reports).
 */
const realm = createContext({
  window: {},
  document: { visibilityState: "visible" },
  PerformanceObserver: Object.assign(
    function () {},
    { supportedEntryTypes: ["paint"] },
    { prototype: { observe() {} } },
  ),
  addEventListener() {},
});

/** Runs the page's boot script in that realm and returns what it put on window.__BRISK__. */
async function bootStateOf(html: string): Promise<{ page: { levels: Array<{ data: { q: string } }> } }> {
  const boot = (await scriptTexts(html)).find((s) => s.includes("window.__BRISK__="));
  if (boot === undefined) throw new Error("no boot script in the page");
  realm.window = {};
  runInContext(boot, realm);
  return realm.window.__BRISK__;
}

const anyString = hostileString({ loneSurrogates: true });
const urlSafeString = hostileString();
/** Loader-data-like values: nested objects and arrays whose keys and strings are hostile too. */
const loaderData = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    anyString,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("scriptString", () => {
  test("parses back to the same value, and is the JSON text itself as a JS expression, lone surrogates and all", () => {
    fc.assert(
      fc.property(loaderData, (value) => {
        const json = JSON.stringify(value);
        const literal = scriptString(json);
        // JSON.parse turns -0 into 0 and NaN into null just as JSON.stringify does: compare to that.
        const expected = JSON.parse(json);
        expect(JSON.parse(runInContext(literal, realm))).toEqual(expected);
        expect(runInContext(literal, realm)).toBe(json);
      }),
      fuzzParams(),
    );
  });

  test("holds no character that can end a script or a JS line, and is well-formed UTF-16", () => {
    fc.assert(
      fc.property(loaderData, (value) => {
        const literal = scriptString(JSON.stringify(value));
        expect(literal).not.toMatch(/[<>&\r\n\u2028\u2029]/);
        // A lone surrogate would become U+FFFD when the page is encoded as UTF-8.
        expect(literal.isWellFormed()).toBe(true);
      }),
      fuzzParams(),
    );
  });

  test("an HTML tokenizer ends the script exactly where the embedded JSON ends", async () => {
    await fc.assert(
      fc.asyncProperty(anyString, async (s) => {
        const script = `var x=JSON.parse(${scriptString(JSON.stringify({ s }))})`;
        const html = `<!doctype html><script>${script}</script><p>after</p><script>var y=1</script>`;
        expect(await scriptTexts(html)).toEqual([script, "var y=1"]);
      }),
      fuzzParams(0.5),
    );
  });
});

describe("through the search page", () => {
  test("the boot script, run in a separate realm, gives the query back exactly", async () => {
    await fc.assert(
      fc.asyncProperty(urlSafeString, async (q) => {
        const res = await t.request(`/search?q=${encodeURIComponent(q)}`);
        expect(res.status).toBe(200);
        expect((await bootStateOf(await res.text())).page.levels[0]!.data.q).toBe(q);
      }),
      fuzzParams(),
    );
  });

  test("page data's first line gives the query back exactly", async () => {
    await fc.assert(
      fc.asyncProperty(urlSafeString, async (q) => {
        const res = await t.request(`/__data/search?q=${encodeURIComponent(q)}`);
        expect(res.status).toBe(200);
        const [head, ...rest] = (await res.text()).split("\n");
        expect(rest).toEqual([""]);
        expect(JSON.parse(head!).levels[0].data.q).toBe(q);
      }),
      fuzzParams(),
    );
  });
});
