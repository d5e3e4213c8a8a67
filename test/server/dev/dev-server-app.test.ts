// dev-server-app.test.ts: the dev server's build of the server code (src/server/dev/server-app.ts): a small app in
// a temporary folder, built with the framework's real server around it, imported afresh after every edit.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createServerAppBuilder, onlyServerSees, type ServerAppBuilder } from "../../../src/server/dev/server-app.ts";
import { testConfig } from "../../support/app.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const runtime = (module: string) => JSON.stringify(join(ROOT, "src/runtime", module));

let dir: string;
let src: string;
let builder: ServerAppBuilder;
const file = (path: string) => join(src, path);
const write = (path: string, text: string) => Bun.write(file(path), text);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "brisk-server-app-"));
  src = join(dir, "src");
  // The builds import packages from where they are written, as the dev server's do from dist/dev.
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
  await Promise.all([
    write(
      "app.ts",
      `import { defineApp } from ${runtime("app-definition.ts")};
import { Page } from "./Page.tsx";
import { pageLoader } from "./page.server.ts";
export default defineApp({
  routes: [{ path: "/", component: Page, loader: pageLoader }],
  fallbacks: {} as never,
  Document: Page,
});
`,
    ),
    write("Page.tsx", `export function Page() {\n  return <h1>first</h1>;\n}\n`),
    write("page.server.ts", `import { rows } from "./db.ts";\nexport const pageLoader = () => ({ rows: rows() });\n`),
    write("db.ts", `export const rows = () => [1, 2, 3];\n`),
    write("client.tsx", `import app from "#app";\nconsole.log(app);\n`),
    write("styles.css", "h1 { color: red; }\n"),
  ]);
  builder = createServerAppBuilder({
    entry: join(ROOT, "src/server/dev/server-entry.ts"),
    appModule: file("app.ts"),
    browserEntries: [file("client.tsx")],
    outdir: join(dir, "builds"),
    importedDir: join(dir, "imported"),
    srcDir: src,
  });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("createServerAppBuilder", () => {
  test("builds the app with the framework's server, which serves it", async () => {
    const built = await builder.build();
    expect(built.app.routes.map((r) => r.path)).toEqual(["/"]);
    expect(await built.app.routes[0]!.loader!({} as never)).toEqual({ rows: [1, 2, 3] });
    expect(built.modules).toContain(file("Page.tsx"));
    expect(built.modules).toContain(join(ROOT, "src/server/create-app.ts"));
    const app = built.createApp(testConfig(), built.app, { assets: {} as never, log: () => {} });
    expect(await (await app.handle(new Request("http://localhost/healthz"))).text()).toBe("ok\n");
  });

  test("tells the modules the browser gets from those only loaders import", async () => {
    const { browserModules } = await builder.build();
    expect(browserModules).toContain(file("client.tsx"));
    expect(browserModules).toContain(file("Page.tsx"));
    // The browser gets a stand-in for the loader module, which imports nothing.
    expect(browserModules).toContain(file("page.server.ts"));
    expect(browserModules).not.toContain(file("db.ts"));
  });

  test("an edit only the server sees: a loader module (the browser's stand-in changes nothing) and what only it imports", async () => {
    const built = await builder.build();
    expect(onlyServerSees(built, file("page.server.ts"))).toBe(true);
    expect(onlyServerSees(built, file("db.ts"))).toBe(true);
    expect(onlyServerSees(built, file("Page.tsx"))).toBe(false);
    expect(onlyServerSees(built, file("styles.css"))).toBe(false);
  });

  test("each build runs the saved code, and the one before leaves the module registry", async () => {
    const first = await builder.build();
    const firstOutput = Object.keys(require.cache).find((k) => k.startsWith(join(dir, "builds")));
    await write("db.ts", `export const rows = () => [4];\n`);
    const second = await builder.build();
    expect(await second.app.routes[0]!.loader!({} as never)).toEqual({ rows: [4] });
    expect(await first.app.routes[0]!.loader!({} as never)).toEqual({ rows: [1, 2, 3] });
    expect(firstOutput).toBeDefined();
    expect(require.cache[firstOutput!]).toBeUndefined();
  });

  test("knows what was saved since the build began, whatever the file watcher says", async () => {
    await builder.build();
    expect(builder.saved()).toEqual([]);
    await write("Page.tsx", `export function Page() {\n  return <h1>second</h1>;\n}\n`);
    expect(builder.saved()).toEqual([file("Page.tsx")]);
    // A file no build reads changes nothing.
    await write("notes.md", "later\n");
    expect(builder.affects(file("notes.md"))).toBe(false);
    expect(builder.saved()).toEqual([file("Page.tsx")]);
    await builder.build();
    expect(builder.saved()).toEqual([]);
  });

  test("a syntax error fails the build naming the file; after it, any save may fix it", async () => {
    await write("Page.tsx", `export function Page() {\n  return <h1>{</h1>;\n}\n`);
    const error = await builder.build().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AggregateError);
    const positions = (error as AggregateError).errors.map(
      (e: { position?: { file: string; line: number } }) => e.position,
    );
    expect(positions).toContainEqual(expect.objectContaining({ file: file("Page.tsx"), line: 2 }));
    // A file the failed build may still need, written now, is one it affects.
    expect(builder.affects(file("NotYetWritten.tsx"))).toBe(true);
    await write("Page.tsx", `export function Page() {\n  return <h1>fixed</h1>;\n}\n`);
    expect((await builder.build()).app.routes).toHaveLength(1);
  });
});
