// The browser build leaves out `*.server.ts` modules: route loaders and what they import never ship.
import { describe, expect, test } from "bun:test";
import { clientAssets } from "../../support/app.ts";

/** Text that only loaders and their imports hold, one from each kind of server-only module. */
const SERVER_ONLY_TEXT = [
  // the fixture's loaders.server.ts: loaders, and a loader's data
  "Fixture failure in a loader",
  "Fixture failure in a streamed section",
  "Fixture home",
  // api.server.ts: the app's API routes, and Elysia with them
  "Fixture failure in an API route",
  "elysia",
];

/** Each script of the build, by file name, as text. */
async function clientScripts(mode: "production" | "development"): Promise<Map<string, string>> {
  const assets = await clientAssets(mode);
  const scripts = assets.manifest.files.filter((f) => f.endsWith(".js"));
  return new Map(scripts.map((f) => [f, new TextDecoder().decode(assets.get(f)!.body)]));
}

const holding = (scripts: Map<string, string>, text: string) => [...scripts].filter(([, js]) => js.includes(text)).map(([f]) => f);

describe("server-only modules", () => {
  test.each(["production", "development"] as const)("no loader code is in any script of the %s client build", async (mode) => {
    const scripts = await clientScripts(mode);
    // The search sees the pages' own text: a component's string is there.
    expect(holding(scripts, "Fixture failure in the browser")).toHaveLength(1);
    for (const text of SERVER_ONLY_TEXT) expect({ text, in: holding(scripts, text) }).toEqual({ text, in: [] });
  });
});
