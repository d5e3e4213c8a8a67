// route-types.ts: the typegen of typed paths. The app's route patterns, as the route tree joins them, written as a
// declaration that registers them with `brisk` (runtime/route-paths.ts): links, forms, fetchers, navigate() and
// redirect() then take only paths a route answers. `bun run typecheck` and `bun run dev` write it; git ignores it.
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { RouteDefinition } from "../../runtime/route.ts";
import { routeTree } from "../../runtime/route-tree.ts";

/** Where the declaration goes, under the project: tsconfig.json's include names it. */
export const ROUTE_TYPES_FILE = join(resolve(import.meta.dir, "../../.."), ".brisk", "routes.d.ts");

/** The declaration's text: every full pattern of the table, once, in the table's order. */
export function routeTypes(routes: readonly RouteDefinition[]): string {
  const patterns = [...new Set([...routeTree(routes).byId.values()].map((node) => node.pattern))];
  const union = patterns.map((pattern) => `    | ${JSON.stringify(pattern)}`).join("\n");
  return `// Written by Brisk from the app's route table (bun run typecheck, bun run dev): not edited, not committed.
declare module "brisk" {
  interface Register {
    patterns:
${union || "    never"};
  }
}
export {};
`;
}

/** Writes the declaration for `routes` when it changed; true when it did. */
export async function writeRouteTypes(routes: readonly RouteDefinition[], file = ROUTE_TYPES_FILE): Promise<boolean> {
  const text = routeTypes(routes);
  const target = Bun.file(file);
  if ((await target.exists()) && (await target.text()) === text) return false;
  await mkdir(dirname(file), { recursive: true });
  await Bun.write(file, text);
  return true;
}
