// dropped-hooks.test.ts: an app plugin with the name and seed of one of Brisk's own would have Elysia drop its hooks
// from the app's routes without a word (its guard skipped); the server refuses to start instead, naming it.
import { beforeAll, expect, test } from "bun:test";
import { Elysia, type AnyElysia } from "elysia";
import { forbidden } from "brisk";
import type { AppDefinition } from "../../../src/runtime/app-definition.ts";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import type { ClientAssets } from "../../../src/server/assets/assets.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";

let fixture: AppDefinition;
let assets: ClientAssets;
beforeAll(async () => {
  fixture = await loadApp();
  assets = await clientAssets();
});

const start = (api: AnyElysia) => createApp(testConfig(), defineApp({ ...fixture, api }), { assets, log: () => {} });

function adminOnly({ request }: { request: Request }) {
  if (request.headers.get("x-role") !== "admin") forbidden();
}

/** The app's API: a guard from a plugin of the app named `name`, before an admin-only route. */
function guarded(plugin: AnyElysia) {
  return new Elysia({ prefix: "/api" }).use(plugin).get("/secret", () => ({ secret: "admins only" }));
}

test.each([
  [
    "brisk:api",
    () => new Elysia({ name: "brisk:api" }).onTransform({ as: "scoped" }, adminOnly),
    /transform hook \(adminOnly\) from GET \/api\/secret/,
  ],
  [
    "brisk",
    () => new Elysia({ name: "brisk" }).onError({ as: "scoped" }, function answerErrors() {}),
    /error hook \(answerErrors\) from GET \/api\/secret/,
  ],
] as const)("a plugin of the app named %p, as Brisk's own is, fails the start, naming it", (name, plugin, hook) => {
  expect(() => start(guarded(plugin()))).toThrow(
    `the app's api uses an Elysia plugin named "${name}" with the seed of Brisk's own`,
  );
  expect(() => start(guarded(plugin()))).toThrow(hook);
});

test.each([
  ["a name of its own", () => new Elysia({ name: "admin-guard" }).onBeforeHandle({ as: "scoped" }, adminOnly)],
  [
    "Brisk's name with a seed of its own",
    () => new Elysia({ name: "brisk:api", seed: "the app's" }).onBeforeHandle({ as: "scoped" }, adminOnly),
  ],
])("a plugin of the app with %s starts, and its guard holds", async (_, plugin) => {
  const app = start(guarded(plugin()));
  const ask = (headers: Record<string, string> = {}) =>
    app.handle(new Request("http://localhost/api/secret", { headers }));
  expect((await ask()).status).toBe(403);
  expect(await (await ask({ "x-role": "admin" })).json()).toEqual({ secret: "admins only" });
});
