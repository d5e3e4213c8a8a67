// The browser build leaves out `*.server.ts` modules: route loaders and what they import never ship.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverOnlyModules } from "../../../src/server/build/server-only.ts";
import { clientAssets } from "../../support/app.ts";

/** Text that only loaders and their imports hold, one from each kind of server-only module. */
const SERVER_ONLY_TEXT = [
  // the fixture's loaders.server.ts: loaders, and a loader's data
  "Fixture failure in a loader",
  "Fixture failure in a streamed section",
  "Fixture home",
  // api.server.ts: the app's API routes, and Elysia with them
  "Fixture failure in an API route",
  "elysia",
];

/** Each script of the build, by file name, as text. */
async function clientScripts(mode: "production" | "development"): Promise<Map<string, string>> {
  const assets = await clientAssets(mode);
  const scripts = assets.manifest.files.filter((f) => f.endsWith(".js"));
  return new Map(scripts.map((f) => [f, new TextDecoder().decode(assets.get(f)!.body)]));
}

const holding = (scripts: Map<string, string>, text: string) =>
  [...scripts].filter(([, js]) => js.includes(text)).map(([f]) => f);

describe("server-only modules", () => {
  test.each(["production", "development"] as const)(
    "no loader code is in any script of the %s client build",
    async (mode) => {
      const scripts = await clientScripts(mode);
      // The search sees the pages' own text: a component's string is there.
      expect(holding(scripts, "Fixture failure in the browser")).toHaveLength(1);
      for (const text of SERVER_ONLY_TEXT) expect({ text, in: holding(scripts, text) }).toEqual({ text, in: [] });
      // The stand-ins' hot-update call is for Bun's development server only.
      expect(holding(scripts, "import.meta.hot")).toEqual([]);
    },
  );
});

describe("a server-only module the browser build cannot read", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  /** Bundles `entry.ts`, which imports `page.server.ts`, for the browser. */
  async function bundle(loaderSource: string) {
    const dir = await mkdtemp(join(tmpdir(), "brisk-server-only-"));
    dirs.push(dir);
    await Bun.write(join(dir, "page.server.ts"), loaderSource);
    await Bun.write(
      join(dir, "entry.ts"),
      `import { pageLoader } from "./page.server.ts";\nconsole.log(pageLoader);\n`,
    );
    return Bun.build({
      entrypoints: [join(dir, "entry.ts")],
      target: "browser",
      plugins: [serverOnlyModules],
      throw: false,
    });
  }

  test("a syntax error fails the build with the module's own error: file, line, column and line text", async () => {
    const line = "export const pageLoader = () => ({ rows: secret + });";
    const result = await bundle(`const secret = "a database password";\n${line}\n`);
    expect(result.success).toBe(false);
    const errors = result.logs.map(({ message, position }) => ({
      message,
      file: position?.file.split("/").at(-1),
      line: position?.line,
      column: position?.column,
    }));
    expect(errors).toEqual([
      { message: "Unexpected }", file: "page.server.ts", line: 2, column: line.indexOf("}") + 1 },
    ]);
    expect(result.logs[0]!.position!.lineText).toBe(line);
  });

  test("a module that reads, as a stand-in: its names, none of its code", async () => {
    const result = await bundle(`const secret = "a database password";\nexport const pageLoader = () => secret;\n`);
    expect(result.success).toBe(true);
    const js = await result.outputs[0]!.text();
    expect(js).toContain("pageLoader = undefined");
    expect(js).not.toContain("a database password");
  });
});
