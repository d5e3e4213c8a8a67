// browser.ts (test support): brisk/test's Chromium, for the framework's end-to-end tests and the bench (from
// its module: a browser driver has no use for the server brisk/test loads).
export { launchBrowser, watchPage, hydrated, type PageWatch } from "../../src/server/testing/browser.ts";
