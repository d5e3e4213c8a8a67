// Data on the wire: what loaders return arrives as it was (Date, Map, Set, BigInt, URL, undefined, NaN,
// ±Infinity, -0) in the document and in page data, streamed values too; what cannot be sent fails on the
// server, naming the route and the key.
import { beforeAll, describe, expect, test } from "bun:test";
import { ASSETS_PREFIX } from "../../../src/server/assets/assets.ts";
import { CODEC_MODULE, needsCodec } from "../../../src/server/pages/wire.ts";
import { logFor, serveApp, type ServedApp } from "brisk/test";
import { clientAssets, FIXTURE } from "../../support/app.ts";
import { bootScript, bootState, pageData as pageDataIn, settledInScripts } from "../../support/page-state.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
});

const pageData = (path: string) => pageDataIn(t, path);

/** What the fixture's typesLoader returns, checked value by value on what arrived. */
function expectIntact(data: Record<string, unknown>) {
  expect(data.when).toEqual(new Date(0));
  expect(data.tags).toEqual(new Set(["a"]));
  expect(data.counts).toEqual(new Map([["x", 1]]));
  expect(data.big).toBe(10n);
  expect(data.link).toBeInstanceOf(URL);
  expect(String(data.link)).toBe("https://example.com/a");
  expect("missing" in data && data.missing === undefined).toBe(true);
  const [u, nan, inf, negInf, zero] = data.list as number[];
  expect([u, Number.isNaN(nan), inf, negInf, Object.is(zero, -0)]).toEqual([
    undefined,
    true,
    Infinity,
    -Infinity,
    true,
  ]);
  expect(data.text).toBe("</script><!-- \u2028");
}

describe("the document", () => {
  test("renders from the values and carries them intact in its boot state", async () => {
    const res = await t.request("/types");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(
      '<output id="types">0|true|1|11|example.com|true|true|true|Infinity|-Infinity|true|15</output>',
    );
    expectIntact(bootState(html).page.levels[0].data);
  });

  test("no value can close the boot script", async () => {
    const html = await (await t.request("/types")).text();
    const boot = /<script nonce="[^"]+" id="_R_">(.*?)<\/script>/s.exec(html)?.[1] ?? "";
    expect(boot).toContain("window.__BRISK__");
    expect(boot).not.toContain("</script");
    expect(boot).not.toContain("<!--");
    expect(boot).not.toContain("\u2028");
  });

  test("a streamed value arrives intact in its inline script", async () => {
    const html = await (await t.request("/types")).text();
    expect(settledInScripts(html)).toEqual([
      { route: "/types", key: "later", value: { at: new Date(1000), ids: new Set([1n]) } },
    ]);
  });

  test("a page whose data JSON carries exactly keeps plain JSON; the codec's form is an array, its chunk fetched beside the entry", async () => {
    const codec = `${ASSETS_PREFIX}${(await clientAssets()).manifest.chunks[CODEC_MODULE]}`;
    const plain = await (await t.request("/search?q=x")).text();
    expect(bootScript(plain)).toStartWith(`window.__BRISK__=JSON.parse('{"page":{"v":`);
    expect(plain).not.toContain(codec);
    const rich = await (await t.request("/types")).text();
    expect(bootScript(rich)).toStartWith(`window.__BRISK__=JSON.parse('{"page":[`);
    // Both fetched and run once the page has painted, the entry first; neither is preloaded before the paint.
    expect(rich).not.toContain('rel="modulepreload"');
    expect(rich).toContain(`(["${ASSETS_PREFIX}${(await clientAssets()).manifest.entry}","${codec}"])</script>`);
  });
});

describe("a streamed value settled before the shell rendered", () => {
  test("has its script in the shell, ahead of the boot script: it queues its settlement, which needs nothing defined", async () => {
    const html = await (await t.request("/settled")).text();
    expect(html).toContain('<output id="settled">ready before the shell|5000</output>');
    const settleAt = html.indexOf("(Array.isArray(self.__BRISK_Q)?self.__BRISK_Q:self.__BRISK_Q=[]).push(");
    expect(settleAt).toBeGreaterThan(0);
    expect(settleAt).toBeLessThan(html.indexOf("window.__BRISK__="));
    expect(settledInScripts(html)).toEqual([
      { route: "/settled", key: "ready", value: "ready before the shell" },
      { route: "/settled", key: "when", value: new Date(5000) },
    ]);
    expect(bootState(html).page.levels[0]).toEqual({ id: "/settled", data: {}, deferred: ["ready", "when"] });
  });

  test("rejected: its script carries the digest of the log line", async () => {
    const res = await t.request("/settled-error");
    const [settled] = settledInScripts(await res.text());
    expect(settled).toEqual({
      route: "/settled-error",
      key: "failed",
      error: { digest: expect.stringMatching(/^[0-9a-z]{10}$/), side: "server" },
    });
    const line = await logFor(t.logs, res);
    expect(line).toMatchObject({ status: 200, phase: "deferred" });
    expect(line.digest).toBe(settled.error.digest);
  });
});

describe("a __proto__ key", () => {
  /** An object's own keys and its prototype, which must be Object.prototype: a key never becomes one. */
  const shape = (value: object) => ({
    keys: Object.keys(value),
    plain: Object.getPrototypeOf(value) === Object.prototype,
  });

  test.each([
    ["/proto", ["__proto__", "a", "nested"]],
    ["/proto-rich", ["__proto__", "a", "nested", "when"]],
  ])(
    "%s: a key at the top level, below it and in a streamed value, in the boot state and in page data",
    async (path, keys) => {
      const res = await t.request(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      const { head, rest } = await pageData(path);
      for (const level of [bootState(html).page.levels[0].data, head.levels[0].data]) {
        expect(shape(level)).toEqual({ keys, plain: true });
        expect(level.__proto__).toEqual({ x: 1 });
        expect(shape(level.nested)).toEqual({ keys: ["__proto__", "b"], plain: true });
      }
      for (const settled of [settledInScripts(html)[0], rest[0]]) {
        expect(shape(settled.value)).toEqual({ keys, plain: true });
        expect(shape(settled.value.nested)).toEqual({ keys: ["__proto__", "b"], plain: true });
      }
      // The document's own render shows them as keys too.
      expect(html).toContain(
        `<output id="proto">${[...keys, "later"].sort().join(",")}:true|__proto__,b:true</output>`,
      );
    },
  );
});

describe("page data", () => {
  test("carries them intact, and the streamed value after it", async () => {
    const { status, head, rest } = await pageData("/types");
    expect(status).toBe(200);
    expectIntact(head.levels[0].data);
    expect(rest).toEqual([{ route: "/types", key: "later", value: { at: new Date(1000), ids: new Set([1n]) } }]);
  });

  test("is plain JSON when JSON carries the data exactly", async () => {
    const text = await (await t.request("/__data/search?q=x")).text();
    expect(text.startsWith('{"v":')).toBe(true);
  });
});

describe("what cannot be sent", () => {
  test("fails on the server: 500 with a digest, the log line naming the route and the key", async () => {
    const res = await t.request("/unsendable");
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toMatch(/Digest: <code>[0-9a-z]{10}<\/code>/);
    expect(html).not.toContain("save");
    const line = await logFor(t.logs, res);
    expect(line).toMatchObject({ status: 500, phase: "loader" });
    expect(JSON.stringify(line)).toContain(
      "the data of route /unsendable cannot be sent to the browser: a function at data.user.save",
    );
  });

  test("in development the page says why", async () => {
    const dev = await serveApp({ ...FIXTURE, env: { NODE_ENV: "development" } });
    const html = await (await dev.request("/unsendable")).text();
    expect(html).toContain("the data of route /unsendable cannot be sent to the browser: a function at data.user.save");
  });

  test.each([
    [{ a: [{ b: () => 1 }] }, "a function at data.a[0].b"],
    [{ "odd key": Symbol("s") }, 'a symbol at data["odd key"]'],
    [{ model: new (class Account {})() }, "an instance of Account at data.model"],
    [
      { deep: { later: Promise.resolve(1) } },
      "a promise below the top level (only a loader's top-level promises stream) at data.deep.later",
    ],
    [{ e: new Error("x") }, "an instance of Error at data.e"],
  ])("%p: %s", (value, where) => {
    expect(() => needsCodec(value, "the data of route /r")).toThrow(
      `the data of route /r cannot be sent to the browser: ${where}`,
    );
  });

  test.each([
    [{ a: 1, b: "x", c: [true, null], d: { e: undefined } }, false],
    [{ a: [undefined] }, true],
    [{ a: -0 }, true],
    [{ a: new Date(0) }, true],
    [{ a: new Map([[1, new Set([2n])]]) }, true],
  ])("%p needs the codec: %p", (value, rich) => {
    expect(needsCodec(value, "x")).toBe(rich);
  });

  test("a repeated object keeps its identity, a cycle too", () => {
    const shared = { n: 1 };
    expect(needsCodec({ a: shared, b: shared }, "x")).toBe(true);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(needsCodec(cycle, "x")).toBe(true);
  });
});
