// The browser build hands wouter React 19's own hooks, so the React code nobody calls stays out.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { wouterOnReact } from "../../../src/server/build/wouter-react.ts";
import { clientAssets } from "../../support/app.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe("wouter on React 19", () => {
  test("React exports that nothing calls are not in the production client (React.Children, say)", async () => {
    const assets = await clientAssets("production");
    const scripts = assets.manifest.files.filter((f) => f.endsWith(".js"));
    const holding = scripts.filter((f) =>
      new TextDecoder().decode(assets.get(f)!.body).includes("React.Children.only"),
    );
    expect(holding).toEqual([]);
  });

  test("a wouter that reads React in a way the plugin does not provide fails the build", async () => {
    const dir = await mkdtemp(join(tmpdir(), "brisk-wouter-"));
    dirs.push(dir);
    const deps = join(dir, "node_modules/wouter/src/react-deps.js");
    await Bun.write(deps, 'import * as React from "react";\nexport const useId = React.useId;\n');
    await Bun.write(join(dir, "entry.js"), `import { useId } from ${JSON.stringify(deps)};\nconsole.log(useId);\n`);
    const result = await Bun.build({
      entrypoints: [join(dir, "entry.js")],
      plugins: [wouterOnReact(ROOT)],
      throw: false,
    });
    expect(result.success).toBe(false);
    expect(result.logs.map(String).join("\n")).toContain("does not provide: React.useId");
  });
});
