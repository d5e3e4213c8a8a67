// app.ts (test support): brisk/test's served app, for the framework's tests: the fixture app unless a test
// names another module, with the same call shapes the framework tests were written against.
import { join } from "node:path";
import { listenApp as listen, serveApp, type ListeningApp, type ServedApp } from "brisk/test";
import type { AppDefinition } from "../../src/runtime/app-definition.ts";
import type { AppDeps } from "../../src/server/create-app.ts";
import type { ClientAssets } from "../../src/server/assets/assets.ts";
import { loadApp as loadAppModule } from "../../src/server/testing/app-module.ts";
import { clientBuild, type ClientMode } from "../../src/server/testing/client.ts";

export { testConfig, testDataDir } from "../../src/server/testing/config.ts";
export { logFor } from "brisk/test";

/** The framework's own test app (test/fixtures/app): framework tests never depend on the example app. */
export const FIXTURE_APP_MODULE = join(import.meta.dir, "../fixtures/app/app.ts");
export const FIXTURE_PUBLIC_DIR = join(import.meta.dir, "../fixtures/public");

export function loadApp(appModule: string = FIXTURE_APP_MODULE): Promise<AppDefinition> {
  return loadAppModule(appModule);
}

/** The fixture app has its own public/; any other app takes the project's. */
const publicDirOf = (appModule: string) => (appModule === FIXTURE_APP_MODULE ? FIXTURE_PUBLIC_DIR : undefined);
const build = (mode: ClientMode, appModule: string) => clientBuild({ app: appModule, mode, publicDir: publicDirOf(appModule) });

export async function clientAssets(mode: ClientMode = "production", appModule: string = FIXTURE_APP_MODULE): Promise<ClientAssets> {
  return (await build(mode, appModule)).assets;
}

/** The folder the production build wrote its source maps to (with a copy of each script). */
export async function clientSourcemaps(appModule: string = FIXTURE_APP_MODULE): Promise<string> {
  return (await build("production", appModule)).sourcemaps;
}

export type TestApp = ServedApp;
export type Listening = ListeningApp;

type TestAppDeps = AppDeps & { clientMode?: ClientMode; appModule?: string };

const serveOptions = (env: Record<string, string>, { clientMode, appModule = FIXTURE_APP_MODULE, ...deps }: TestAppDeps) => ({
  app: appModule,
  env,
  clientMode,
  publicDir: publicDirOf(appModule),
  deps,
});

export function testApp(env: Record<string, string> = {}, deps: TestAppDeps = {}): Promise<TestApp> {
  return serveApp(serveOptions(env, deps));
}

/** The same app on a real socket on 127.0.0.1. */
export function listenApp(env: Record<string, string> = {}, deps: TestAppDeps = {}): Promise<Listening> {
  return listen(serveOptions(env, deps));
}
