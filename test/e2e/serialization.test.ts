// Loader data in Chromium: any string, lone surrogates, NUL and `</script>` included, reaches
// window.__BRISK__ exactly as the server held it. Strings are read back as UTF-16 code units, so
// nothing on the way (CDP, JSON, the test) can repair or replace a character unnoticed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { Browser, Page } from "playwright-core";
import { createElement } from "react";
import { renderToReadableStream } from "react-dom/server";
import { scriptValue } from "../../src/server/pages/wire.ts";
import { launchBrowser, listenApp, type ListeningApp } from "brisk/test";
import { FIXTURE } from "../support/app.ts";
import { MARKER, codeUnits, fuzzParams, hostileString } from "../support/fuzz.ts";

let server: ListeningApp;
let browser: Browser;
let page: Page;
/** Script errors on the page: a value that escaped its script tag shows up here first. */
const pageErrors: string[] = [];

beforeAll(async () => {
  server = await listenApp(FIXTURE);
  browser = await launchBrowser();
  page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
});

/**
 * The embedding render.tsx uses (React's bootstrapScriptContent around the JSON.parse of a script string), plus a
 * bare <script> with scriptValue alone: React escapes `</script` itself, and scriptValue must not rely on that.
 */
async function documentWith(q: string): Promise<string> {
  const html = createElement("html", null, createElement("body", null, createElement("p", null, "fixture")));
  const stream = await renderToReadableStream(html, {
    bootstrapScriptContent: `window.__BRISK__=${scriptValue({ page: { levels: [{ data: { q } }] } })}`,
  });
  const bare = `<script>window.__BARE__=${scriptValue(q)}</script><p>after</p>`;
  return (await new Response(stream).text()).replace("</body>", `${bare}</body>`);
}

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface ReadBack {
  /** The page's loader data's q (window.__BRISK__.page.levels[0].data.q) as code units. */
  q: number[];
  /** window.__BARE__ as code units, when the page has it. */
  bare?: number[];
  /** An <x-fuzz> element in the DOM: markup from the value was parsed as markup. */
  injected: boolean;
}

function readBack(): Promise<ReadBack> {
  return page.evaluate(() => {
    const w = window as unknown as {
      __BRISK__: { page: { levels: Array<{ data: { q: string } }> } };
      __BARE__?: string;
    };
    const units = (s: string) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
    const out: ReadBack = {
      q: units(w.__BRISK__.page.levels[0]!.data.q),
      injected: document.querySelector("x-fuzz") !== null,
    };
    if (w.__BARE__ !== undefined) out.bare = units(w.__BARE__);
    return out;
  });
}

/** Scripts have run by DOMContentLoaded; waiting for the client bundle as well would only cost time. */
const loaded = { waitUntil: "domcontentloaded" } as const;

describe("loader data reaches the browser exactly", () => {
  test("scriptValue inside React's bootstrap script, parsed by Chromium: every string, lone surrogates included", async () => {
    await fc.assert(
      fc.asyncProperty(hostileString({ loneSurrogates: true }), async (s) => {
        // setContent hands the document to Chromium's HTML parser without a navigation (~10 ms, not ~200):
        // lone surrogates are escaped to ASCII by JSON.stringify, so no byte encoding is skipped that matters.
        // document.open keeps the window, so clear the last values: a script that failed to run must not pass.
        pageErrors.length = 0;
        await page.evaluate(() => {
          delete (window as { __BRISK__?: unknown }).__BRISK__;
          delete (window as { __BARE__?: unknown }).__BARE__;
        });
        await page.setContent(await documentWith(s));
        expect(await readBack()).toEqual({ q: codeUnits(s), bare: codeUnits(s), injected: false });
        expect(pageErrors).toEqual([]);
      }),
      fuzzParams(0.15),
    );
  });

  test("the fixture's search page over HTTP: the query, percent-encoded in the URL, arrives in window.__BRISK__ exactly", async () => {
    await fc.assert(
      fc.asyncProperty(hostileString(), async (s) => {
        pageErrors.length = 0;
        await page.goto(`${server.origin}/search?q=${encodeURIComponent(`${MARKER}${s}`)}`, loaded);
        expect(await readBack()).toEqual({ q: codeUnits(`${MARKER}${s}`), injected: false });
        expect(pageErrors).toEqual([]);
      }),
      fuzzParams(0.02),
    );
  });
});
