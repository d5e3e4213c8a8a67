// wouter-location.ts: leaves wouter's own browser location out of the browser build. Brisk hands every
// browser <Router> its own location and search hooks (App.tsx; the fixed location of a server render never
// runs in a browser), so wouter's defaults are dead code there, and the module that holds them also patches
// history.pushState and replaceState on load, in every first visit's entry for nothing (bench/README.md,
// figures the source carried: the browser build).
import type { BunPlugin } from "bun";

/** What wouter's index.js imports from it, as its source spells it; anything else fails the build. */
const IMPORT =
  /import\s*\{\s*useBrowserLocation,\s*useSearch as useBrowserSearch,?\s*\}\s*from\s*"\.\/use-browser-location\.js";/;
const STAND_IN = [
  'const notInTheBrowser = () => { throw new Error("Brisk: wouter\'s own browser location is not in the client build"); };',
  "const useBrowserLocation = notInTheBrowser, useBrowserSearch = notInTheBrowser;",
].join("\n");

export const wouterWithoutBrowserLocation: BunPlugin = {
  name: "brisk:wouter-without-browser-location",
  setup(build) {
    build.onLoad({ filter: /\/node_modules\/wouter\/src\/index\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      if (!IMPORT.test(source))
        throw new Error(
          `${path} no longer imports its browser location as src/server/build/wouter-location.ts expects`,
        );
      return { contents: source.replace(IMPORT, STAND_IN), loader: "js" };
    });
  },
};
