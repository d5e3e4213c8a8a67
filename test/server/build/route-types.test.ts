// The typegen of typed paths: the fixture app's table as a declaration that registers its patterns, written only
// when it changed, and checked for real: with it, `bun check` refuses a link to a path no route answers, naming it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { routeTypes, writeRouteTypes } from "../../../src/server/build/route-types.ts";
import { loadApp } from "../../support/app.ts";

const ROOT = resolve(import.meta.dir, "../../..");
let dir: string;
let routes: Awaited<ReturnType<typeof loadApp>>["routes"];

beforeAll(async () => {
  routes = (await loadApp()).routes;
  // A dot folder at the root, as the docs' sample check makes: where `brisk` resolves to this checkout.
  dir = await mkdtemp(join(ROOT, ".route-types-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test("every full pattern of the table, once: a child's joined to its layout's, an index route's its parent's", () => {
  const text = routeTypes([
    { path: "/", component: () => null },
    {
      path: "/shop/:id",
      component: () => null,
      children: [{ index: true }, { path: "items/:item" }, { path: "/shop/:id/about" }],
    },
    { path: "/files/*" },
  ]);
  const patterns = [...text.matchAll(/^ {4}\| ("[^"]*");?$/gm)].map(([, quoted]) => JSON.parse(quoted!) as string);
  expect(patterns).toEqual(["/", "/shop/:id", "/shop/:id/items/:item", "/shop/:id/about", "/files/*"]);
  expect(text).toContain('declare module "brisk"');
});

test("written when the table changed, left alone when it did not", async () => {
  const file = join(dir, "written", "routes.d.ts");
  expect(await writeRouteTypes(routes, file)).toBe(true);
  expect(await writeRouteTypes(routes, file)).toBe(false);
  expect(await writeRouteTypes([...routes, { path: "/new" }], file)).toBe(true);
  expect(await Bun.file(file).text()).toContain('"/new"');
});

test("registered, a link to a path no route answers fails the type check, which names the path", async () => {
  const project = join(dir, "checked");
  await writeRouteTypes(routes, join(project, "routes.d.ts"));
  await Bun.write(
    join(project, "links.tsx"),
    `import { Link } from "brisk";
export const fine = <Link to="/search?q=x">search</Link>;
export const misspelt = <Link to="/serch">search</Link>;
`,
  );
  // A program of these two files alone: the checkout's own .brisk/routes.d.ts registers the examples' table.
  await Bun.write(
    join(project, "tsconfig.json"),
    JSON.stringify({ extends: "../../tsconfig.json", files: ["routes.d.ts", "links.tsx"], include: [] }),
  );
  const check = Bun.spawn(["bun", "check", "--no-script", "--no-pretty", "-p", project], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out] = await Promise.all([new Response(check.stdout).text(), check.exited]);
  const errors = out.split("\n").filter((line) => line.includes("error TS"));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain("links.tsx(3,");
  expect(errors[0]).toContain(`"no route answers /serch"`);
}, 30_000);
