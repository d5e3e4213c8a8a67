// The production client's source maps: written with debug ids into sourcemaps/ beside the client, never served.
import { expect, test } from "bun:test";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { isIgnored, originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { debugIdOf } from "../../../src/runtime/debug-id.ts";
import { serveApp } from "brisk/test";
import { clientAssets, clientSourcemaps, FIXTURE } from "../../support/app.ts";

const scriptsOf = (files: readonly string[]) => files.filter((f) => f.endsWith(".js"));

test("every shipped script ends with a debug id, and its map with the same id is in sourcemaps/ beside a copy of it", async () => {
  const assets = await clientAssets();
  const dir = await clientSourcemaps();
  const scripts = scriptsOf(assets.manifest.files);
  expect(scripts.length).toBeGreaterThan(2);
  expect((await readdir(dir)).sort()).toEqual(scripts.flatMap((s) => [s, `${s}.map`]).sort());
  for (const script of scripts) {
    const shipped = new TextDecoder().decode(assets.get(script)!.body);
    const debugId = debugIdOf(shipped);
    expect(debugId).toMatch(/^[0-9A-F]{32}$/);
    const map = (await Bun.file(join(dir, `${script}.map`)).json()) as { debugId: string; sources: string[] };
    expect(map.debugId).toBe(debugId!);
    // The copy uploaded with the map is the very file browsers run.
    expect(await Bun.file(join(dir, script)).text()).toBe(shipped);
    // No comment sends browsers looking for the map.
    expect(shipped).not.toContain("sourceMappingURL");
  }
});

test("a map's sources name project files relative to the project root", async () => {
  const assets = await clientAssets();
  const map = (await Bun.file(join(await clientSourcemaps(), `${assets.manifest.entry}.map`)).json()) as {
    sources: string[];
  };
  expect(map.sources).toContain("src/entry-client.tsx");
  expect(map.sources).toContain("test/fixtures/app/pages.tsx");
  expect(map.sources.filter((s) => s.startsWith("../") || s.startsWith("/"))).toEqual([]);
});

test("a function the minifier renamed maps to its original name, as Sentry names a frame's function", async () => {
  const assets = await clientAssets();
  const dir = await clientSourcemaps();
  const code = await Bun.file(join(dir, assets.manifest.entry)).text();
  const map = new TraceMap(await Bun.file(join(dir, `${assets.manifest.entry}.map`)).json());
  const named = new Map<string, string | null>();
  code.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/function ([A-Za-z_$][\w$]*)\(/g)) {
      const original = originalPositionFor(map, { line: i + 1, column: m.index! + "function ".length });
      if (original.source === "test/fixtures/app/pages.tsx") named.set(m[1]!, original.name);
    }
  });
  const names = [...named.values()];
  expect(names).toContain("ClientError");
  expect(names).toContain("ErrorPage");
  // Each under its minified name, with the name it had.
  for (const [minified, name] of named)
    expect({ minified, name: name === minified ? null : name }).toEqual({
      minified,
      name: expect.stringMatching(/^[A-Z]\w+$/),
    });
});

test("every dependency's source is in the map's ignore list (not in-app once mapped), and no project source is", async () => {
  const dir = await clientSourcemaps();
  for (const file of (await readdir(dir)).filter((f) => f.endsWith(".map"))) {
    const json = await Bun.file(join(dir, file)).json();
    const map = new TraceMap(json);
    for (const source of json.sources as string[])
      expect({ source, ignored: isIgnored(map, source) }).toEqual({
        source,
        ignored: source.startsWith("node_modules/"),
      });
    expect(json.x_google_ignoreList).toEqual(json.ignoreList);
  }
});

test("no map is served: none is left in the client folder (the binary embeds it), and /assets/<script>.map is a plain 404", async () => {
  const served = await readdir(join(await clientSourcemaps(), "../client"));
  expect(served.filter((f) => f.endsWith(".map"))).toEqual([]);
  const t = await serveApp(FIXTURE);
  const assets = await clientAssets();
  for (const script of scriptsOf(assets.manifest.files)) {
    const res = await t.request(`/assets/${script}.map`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("asset not found\n");
  }
});
