// scheduler-exports.ts: lets the browser build read React's scheduler as plain functions. Its production module
// assigns `exports.unstable_now` twice (a stand-in, then one of two clocks), so the bundler keeps every export of
// the module live through a namespace object with a getter and a setter each, and React DOM calls them through it,
// in every first visit's entry (bench/README.md, figures the source carried: the browser build). Assigned once,
// from a local, they are ordinary bindings the bundler calls directly and minifies.
import type { BunPlugin } from "bun";

const DECLARATION = "exports.unstable_now = void 0;";
const ASSIGNMENT = /exports\.unstable_now = function/g;
const CALL = /exports\.unstable_now\(\)/g;
/** A name the module does not use (it has a `currentTime` of its own in most functions). */
const LOCAL = "briskSchedulerClock";

/** The module with its clock in a local; throws when its source no longer reads as this expects. */
export function withOneClockExport(source: string, path: string): string {
  const rewritten = source
    .replace(DECLARATION, `var ${LOCAL};`)
    .replace(ASSIGNMENT, `${LOCAL} = function`)
    .replace(CALL, `${LOCAL}()`);
  const assignments = source.match(ASSIGNMENT)?.length ?? 0;
  if (
    !source.includes(DECLARATION) ||
    assignments !== 2 ||
    source.includes(LOCAL) ||
    rewritten.includes("exports.unstable_now")
  ) {
    throw new Error(`${path} no longer defines unstable_now as src/server/build/scheduler-exports.ts expects`);
  }
  return `${rewritten}\nexports.unstable_now = ${LOCAL};\n`;
}

export const schedulerExports: BunPlugin = {
  name: "brisk:scheduler-exports",
  setup(build) {
    build.onLoad({ filter: /\/node_modules\/scheduler\/cjs\/scheduler\.production\.js$/ }, async ({ path }) => ({
      contents: withOneClockExport(await Bun.file(path).text(), path),
      loader: "js",
    }));
  },
};
