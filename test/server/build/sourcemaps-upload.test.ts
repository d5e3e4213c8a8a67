// `bun run sourcemaps:upload`, and `bun run build` with SENTRY_AUTH_TOKEN, with the real sentry-cli against a local
// stand-in for Sentry's API: one artifact bundle with every script and map of the build, their debug ids, tied to
// the release the server reports.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runBuild } from "../../../src/server/build/build-command.ts";
import { UploadError } from "../../../src/server/build/sourcemap-upload.ts";
import { debugIdOf, sentryDebugId } from "../../../src/runtime/debug-id.ts";
import { clientAssets, clientSourcemaps, FIXTURE_APP_MODULE } from "../../support/app.ts";
import { BUILD_TIMEOUT_MS } from "../../support/binary.ts";
import { startFakeSentryApi, type FakeSentryApi } from "../../support/fake-sentry-api.ts";
import { serverEnv, start } from "../../support/process.ts";

const ROOT = resolve(import.meta.dir, "../../..");
let api: FakeSentryApi;
beforeAll(async () => {
  api = await startFakeSentryApi();
});
afterAll(() => api?.stop());

async function upload(env: Record<string, string>) {
  const run = start(["bun", join(ROOT, "scripts/upload-sourcemaps.ts"), await clientSourcemaps()], {
    env: serverEnv({
      SENTRY_URL: api.url,
      SENTRY_AUTH_TOKEN: "sntrys_test-token",
      SENTRY_ORG: "acme",
      SENTRY_PROJECT: "brisk",
      ...env,
    }),
  });
  return { code: await run.proc.exited, output: run.output() };
}

test("uploads every script and its map of the build in one bundle, with their debug ids, tied to the build id as the release", async () => {
  const { code, output } = await upload({});
  expect({ code, output }).toMatchObject({ code: 0 });
  const assets = await clientAssets();
  expect(api.bundles).toHaveLength(1);
  const [bundle] = api.bundles;
  expect(bundle).toMatchObject({
    org: "acme",
    projects: ["brisk"],
    release: assets.manifest.buildId,
    authorization: "Bearer sntrys_test-token",
  });
  const manifest = JSON.parse(bundle!.files["manifest.json"]!) as {
    files: Record<string, { url: string; headers?: Record<string, string> }>;
  };
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
  expect(output.trim()).toBe(
    "sourcemaps:upload: SENTRY_AUTH_TOKEN must be set (SENTRY_URL too, for self-hosted Sentry)",
  );
});

describe("bun run build", () => {
  const sentryEnv = () =>
    serverEnv({
      SENTRY_URL: api.url,
      SENTRY_AUTH_TOKEN: "sntrys_test-token",
      SENTRY_ORG: "acme",
      SENTRY_PROJECT: "brisk",
    });

  /** runBuild as scripts/build.ts runs it, on the fixture app in a folder of its own; what it said, line by line. */
  async function build(
    env: Record<string, string | undefined>,
  ): Promise<{ lines: string[]; buildId?: string; error?: unknown }> {
    const outdir = await mkdtemp(join(tmpdir(), "brisk-build-command-"));
    const lines: string[] = [];
    try {
      await runBuild({ outdir, appModule: FIXTURE_APP_MODULE, env, log: (line) => void lines.push(line) });
      const buildId = ((await Bun.file(join(outdir, "client/manifest.json")).json()) as { buildId: string }).buildId;
      return { lines, buildId };
    } catch (error) {
      return { lines, error };
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  }

  test(
    "with SENTRY_AUTH_TOKEN it uploads the maps of the build it made, tied to its build id, and says so",
    async () => {
      api.bundles.length = 0;
      const { lines, buildId, error } = await build(sentryEnv());
      expect(error).toBeUndefined();
      expect(api.bundles).toHaveLength(1);
      expect(api.bundles[0]).toMatchObject({ org: "acme", projects: ["brisk"], release: buildId });
      expect(lines).toHaveLength(2);
      expect(lines[1]).toBe(`source maps sent to Sentry for release ${buildId}`);
    },
    BUILD_TIMEOUT_MS,
  );

  test(
    "without a token it uploads nothing and says, in one line, how it would",
    async () => {
      api.bundles.length = 0;
      const { lines, error } = await build(
        serverEnv({ SENTRY_URL: api.url, SENTRY_ORG: "acme", SENTRY_PROJECT: "brisk" }),
      );
      expect(error).toBeUndefined();
      expect(api.bundles).toEqual([]);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toStartWith(
        "source maps not sent to Sentry: set SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT",
      );
      expect(lines[1]).toContain("bun run sourcemaps:upload");
    },
    BUILD_TIMEOUT_MS,
  );

  test("a token without its project fails the build before it builds, naming what is missing", async () => {
    const { lines, error } = await build({ ...sentryEnv(), SENTRY_PROJECT: "" });
    expect(error).toBeInstanceOf(UploadError);
    expect((error as Error).message).toBe("SENTRY_PROJECT must be set (SENTRY_URL too, for self-hosted Sentry)");
    expect(lines).toEqual([]);
  });
});
