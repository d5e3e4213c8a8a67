// `bun run sourcemaps:upload` with the real sentry-cli against a local stand-in for Sentry's API: one artifact
// bundle with every script and map of the build, their debug ids, tied to the release the server reports.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { debugIdOf, sentryDebugId } from "../../src/runtime/debug-id.ts";
import { clientAssets, clientSourcemaps } from "../support/app.ts";
import { startFakeSentryApi, type FakeSentryApi } from "../support/fake-sentry-api.ts";
import { serverEnv, start } from "../support/process.ts";

const ROOT = resolve(import.meta.dir, "../..");
let api: FakeSentryApi;
beforeAll(async () => {
  api = await startFakeSentryApi();
});
afterAll(() => api?.stop());

async function upload(env: Record<string, string>) {
  const run = start(["bun", join(ROOT, "scripts/upload-sourcemaps.ts"), await clientSourcemaps()], {
    env: serverEnv({ SENTRY_URL: api.url, SENTRY_AUTH_TOKEN: "sntrys_test-token", SENTRY_ORG: "acme", SENTRY_PROJECT: "brisk", ...env }),
  });
  return { code: await run.proc.exited, output: run.output() };
}

test("uploads every script and its map of the build in one bundle, with their debug ids, tied to the build id as the release", async () => {
  const { code, output } = await upload({});
  expect({ code, output }).toMatchObject({ code: 0 });
  const assets = await clientAssets();
  expect(api.bundles).toHaveLength(1);
  const [bundle] = api.bundles;
  expect(bundle).toMatchObject({ org: "acme", projects: ["brisk"], release: assets.manifest.buildId, authorization: "Bearer sntrys_test-token" });
  const manifest = JSON.parse(bundle!.files["manifest.json"]!) as { files: Record<string, { url: string; headers?: Record<string, string> }> };
  const uploaded = Object.values(manifest.files);
  for (const script of assets.manifest.files.filter((f) => f.endsWith(".js"))) {
    // sentry-cli writes the id in Sentry's (dashed, lowercase) form, as browser events do.
    const dashed = sentryDebugId(debugIdOf(new TextDecoder().decode(assets.get(script)!.body))!);
    expect(uploaded.find((f) => f.url === `~/${script}`)?.headers?.["debug-id"]).toBe(dashed);
    expect(uploaded.find((f) => f.url === `~/${script}.map`)?.headers?.["debug-id"]).toBe(dashed);
  }
});

test("SENTRY_RELEASE names the release instead, as it does for the server", async () => {
  api.bundles.length = 0;
  expect((await upload({ SENTRY_RELEASE: "2026.11.26-1" })).code).toBe(0);
  expect(api.bundles[0]?.release).toBe("2026.11.26-1");
});

test("without SENTRY_AUTH_TOKEN it stops with one line naming what is missing", async () => {
  const { code, output } = await upload({ SENTRY_AUTH_TOKEN: "" });
  expect(code).toBe(1);
  expect(output.trim()).toBe("sourcemaps:upload: SENTRY_AUTH_TOKEN must be set (SENTRY_URL too, for self-hosted Sentry)");
});
