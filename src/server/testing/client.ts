// client.ts (brisk/test): the app's client build, made once per app, mode and public folder in a test process,
// in a temporary folder that goes with the process.
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClient } from "../build/client-build.ts";
import { loadClientAssets, type ClientAssets } from "../assets/assets.ts";
import { loadApp } from "./app-module.ts";
import type { ClientMode } from "./serve.ts";

export interface ClientBuild {
  assets: ClientAssets;
  /** The folder a production build wrote its source maps to (with a copy of each script), beside `client/`. */
  sourcemaps: string;
}

export interface ClientBuildOptions {
  /** The app's module, absolute. */
  app: string;
  mode?: ClientMode;
  /** The app's public files; the build's default (public/ at the project root) when omitted. */
  publicDir?: string;
}

const builds = new Map<string, Promise<ClientBuild>>();

export function clientBuild({ app, mode = "production", publicDir }: ClientBuildOptions): Promise<ClientBuild> {
  const key = JSON.stringify([app, mode, publicDir]);
  let build = builds.get(key);
  if (!build) {
    build = (async () => {
      const dir = await mkdtemp(join(tmpdir(), `brisk-client-${mode}-`));
      // The build is read into memory at load, so the folder can go with the test process.
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      await buildClient({ outdir: join(dir, "client"), mode, appModule: app, publicDir });
      const assets = loadClientAssets((await loadApp(app)).routes, join(dir, "client"));
      return { assets, sourcemaps: join(dir, "sourcemaps") };
    })();
    builds.set(key, build);
  }
  return build;
}
