// app.ts (test support): the framework's fixture app for its tests: brisk/test's options that serve it
// (`serveApp(FIXTURE)`), its definition and client build, and brisk/test's serving with what only the
// framework's tests hand the server (serveWith, listenWith: createApp's dependencies, reached directly).
import { join } from "node:path";
import type { ServeOptions } from "brisk/test";
import type { AppDefinition } from "../../src/runtime/app-definition.ts";
import type { ClientAssets } from "../../src/server/assets/assets.ts";
import { loadApp as loadAppModule } from "../../src/server/testing/app-module.ts";
import { clientBuild } from "../../src/server/testing/client.ts";
import type { ClientMode } from "../../src/server/testing/serve.ts";

export { testConfig, testDataDir } from "../../src/server/testing/config.ts";
export { listenWith, serveWith } from "../../src/server/testing/served-app.ts";

/** The framework's own test app (test/fixtures/app): framework tests never depend on the example app. */
export const FIXTURE_APP_MODULE = join(import.meta.dir, "../fixtures/app/app.ts");
export const FIXTURE_PUBLIC_DIR = join(import.meta.dir, "../fixtures/public");

/** brisk/test's options for the fixture app, with its own public/: spread them under a test's own. */
export const FIXTURE = { app: FIXTURE_APP_MODULE, publicDir: FIXTURE_PUBLIC_DIR } as const satisfies ServeOptions;

export function loadApp(): Promise<AppDefinition> {
  return loadAppModule(FIXTURE_APP_MODULE);
}

/** The fixture app's client build, with its own public/. */
const build = (mode: ClientMode) => clientBuild({ ...FIXTURE, mode });

export async function clientAssets(mode: ClientMode = "production"): Promise<ClientAssets> {
  return (await build(mode)).assets;
}

/** The folder the production build wrote its source maps to (with a copy of each script). */
export async function clientSourcemaps(): Promise<string> {
  return (await build("production")).sourcemaps;
}

/** A route matcher for a client asset's requests, whatever query a retry adds to its URL (retry-import.ts). */
export const assetRequests = (name: string) => (url: URL) => url.pathname === `/assets/${name}`;
