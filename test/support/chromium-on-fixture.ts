// chromium-on-fixture.ts (test support): one fixture app on a real socket with a development client (React
// then reports every hydration mismatch on the console) and one Chromium, for a whole test file.
import { afterAll, beforeAll } from "bun:test";
import type { Browser } from "playwright-core";
import { launchBrowser, listenApp, type ListeningApp } from "brisk/test";
import { FIXTURE } from "./app.ts";

export interface ChromiumOnFixture {
  server: ListeningApp;
  browser: Browser;
}

/** Filled in by the file's beforeAll; read it inside tests. */
export function chromiumOnFixture(): ChromiumOnFixture {
  const handle = {} as ChromiumOnFixture;
  beforeAll(async () => {
    handle.server = await listenApp({ ...FIXTURE, clientMode: "development" });
    handle.browser = await launchBrowser();
  });
  afterAll(async () => {
    await handle.browser?.close();
    await handle.server?.stop();
  });
  return handle;
}
