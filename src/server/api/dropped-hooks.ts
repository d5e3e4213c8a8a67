// dropped-hooks.ts: refuses, at start, an app API that Elysia merged with Brisk's plugins by dropping some of its
// hooks. Elysia keys the hooks of a named plugin by its name and seed, and where two hooks of one kind with the
// same key meet on a route it keeps the first (Brisk's) and drops the other: an app plugin named like one of
// Brisk's (`brisk:api`, say) would lose its guard without a word.
import { checksum, type AnyElysia } from "elysia";

type Hook = { fn?: unknown; checksum?: unknown };

/** A route's hooks of each kind (parse, beforeHandle…), as Elysia keeps them: a list of `{ fn, checksum }` each. */
function hooksByKind(hooks: unknown): Map<string, readonly Hook[]> {
  const kinds = new Map<string, readonly Hook[]>();
  for (const [kind, list] of Object.entries(hooks as Record<string, unknown>)) {
    if (Array.isArray(list))
      kinds.set(
        kind,
        (list as unknown[]).filter((hook): hook is Hook => typeof hook === "object" && hook !== null && "fn" in hook),
      );
  }
  return kinds;
}

/** Brisk's plugins by the key Elysia gives each: the server itself and the named plugins it uses. */
function briskPluginNames(server: AnyElysia): Map<unknown, string> {
  const names = new Map<unknown, string>();
  const { name, seed } = server.config;
  if (name) names.set(checksum(name + JSON.stringify(seed)), name);
  // Elysia's record of the named plugins an instance used: private in its types, read here only for their names.
  const used = (server as unknown as { dependencies: Record<string, ReadonlyArray<{ checksum: number }>> })
    .dependencies;
  for (const [plugin, uses] of Object.entries(used)) {
    for (const use of uses) names.set(use.checksum, plugin);
  }
  return names;
}

/** Throws, naming the plugin, the hook and the route, when a hook of the app's API is missing from the route served. */
export function refuseDroppedHooks(server: AnyElysia, api: AnyElysia | undefined): void {
  if (!api) return;
  const served = new Map(server.routes.map((route) => [`${route.method} ${route.path}`, hooksByKind(route.hooks)]));
  for (const route of api.routes) {
    const kept = served.get(`${route.method} ${route.path}`);
    if (!kept) continue;
    for (const [kind, hooks] of hooksByKind(route.hooks)) {
      const fns = new Set(kept.get(kind)?.map((hook) => hook.fn));
      const dropped = hooks.find((hook) => !fns.has(hook.fn));
      if (!dropped) continue;
      const plugin = briskPluginNames(server).get(dropped.checksum);
      const hookName = typeof dropped.fn === "function" && dropped.fn.name ? ` (${dropped.fn.name})` : "";
      throw new Error(
        `the app's api uses an Elysia plugin named ${plugin ? JSON.stringify(plugin) : "like one of Brisk's"} with the seed of Brisk's own: ` +
          `Elysia takes the two for one plugin and drops the app's ${kind} hook${hookName} from ${route.method} ${route.path}. ` +
          "Give the plugin a name of its own.",
      );
    }
  }
}
