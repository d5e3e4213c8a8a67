// production-client.test.ts: the production client build carries nothing of `bun run dev`: no React Fast Refresh
// runtime or registrations, no hot-module code, nothing of the dev server's paths.
import { expect, test } from "bun:test";
import { clientAssets } from "../../support/app.ts";

/** What the dev server's bundles and hot updates are made of. */
const DEV_ONLY = [
  "$RefreshReg$",
  "$RefreshSig$",
  "react-refresh",
  "import.meta.hot",
  "bun:hmr",
  "/_bun/",
  "brisk:hot",
  "/__dev/",
];

test("the production client of the fixture app contains no refresh or hot-module code", async () => {
  const assets = await clientAssets("production");
  const scripts = assets.manifest.files.filter((f) => f.endsWith(".js"));
  expect(scripts.length).toBeGreaterThan(1);
  const found = scripts.flatMap((file) => {
    const text = new TextDecoder().decode(assets.get(file)!.body);
    return DEV_ONLY.filter((marker) => text.includes(marker)).map((marker) => `${file}: ${marker}`);
  });
  expect(found).toEqual([]);
});
