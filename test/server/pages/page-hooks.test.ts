// What the server's hooks give a page rendered per request, and must still give it on any shorter path to the pages
// (one answered from the first hook was tried: bench/README.md, "Fewer layers per request"): one log line with the
// answer's request id, the server's security headers on the pages' every answer, the error hook's 500, and an
// app's own global hooks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import type { ErrorContext } from "../../../src/server/request/context.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { listenApp, logFor, type ListeningApp } from "brisk/test";
import { clientAssets, FIXTURE, loadApp, serveWith, testConfig } from "../../support/app.ts";

let server: ListeningApp;
beforeAll(async () => {
  server = await listenApp({ ...FIXTURE, env: { HSTS_MAX_AGE: "600" } });
});
afterAll(() => server.stop());

describe("a page rendered per request", () => {
  test("one log line with its route, whose id the answer carries, and the document's and the server's headers", async () => {
    const res = await fetch(`${server.origin}/items/7`);
    expect(res.status).toBe(200);
    await res.text();
    const line = await logFor(server.logs, res);
    expect(line).toMatchObject({ level: "info", method: "GET", path: "/items/7", status: 200, route: "/items/:id" });
    expect(server.logs.filter((l) => l.requestId === line.requestId)).toHaveLength(1);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=600");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("'nonce-");
  });

  test("a streamed page is logged once it has all rendered", async () => {
    const res = await fetch(`${server.origin}/stream`);
    const body = await res.text();
    expect(body).toContain("</html>");
    expect(await logFor(server.logs, res)).toMatchObject({ status: 200, path: "/stream" });
  });

  for (const [what, path, init, status] of [
    ["a path too long", `/${"a".repeat(9000)}`, {}, 414],
    ["a method the route refuses", "/items/7", { method: "DELETE" }, 405],
    ["a page's own outcome", "/not-found", {}, 404],
  ] as const) {
    test(`${what}: ${status} with the request id and the server's headers, logged once`, async () => {
      const res = await fetch(`${server.origin}${path}`, init);
      expect(res.status).toBe(status);
      await res.arrayBuffer();
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=600");
      const line = await logFor(server.logs, res);
      expect(line.status).toBe(status);
      expect(server.logs.filter((l) => l.requestId === line.requestId)).toHaveLength(1);
    });
  }
});

test("what fails outside the page's own error pages is the error hook's 500: digest, request id, one line, captured once", async () => {
  const captured: ErrorContext[] = [];
  const app = await serveWith(FIXTURE, {
    capture: (_error, context) => void captured.push(context),
    monitor: {
      routed() {
        throw new Error("the monitor broke");
      },
    },
  });
  const res = await app.request("/items/7");
  expect(res.status).toBe(500);
  const digest = /digest ([\w-]+)/.exec(await res.text())?.[1];
  expect(digest).toBeTruthy();
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  const line = await logFor(app.logs, res);
  expect(line).toMatchObject({
    level: "error",
    status: 500,
    digest,
    phase: "handler",
    error: "Error: the monitor broke",
  });
  expect(captured).toMatchObject([{ digest, phase: "handler", requestId: res.headers.get("x-request-id") }]);
});

test("an app whose API plugin hooks every request keeps its pages on the route, where the hook runs", async () => {
  const seen: string[] = [];
  const api = new Elysia().onBeforeHandle({ as: "global" }, function note({ request }) {
    seen.push(new URL(request.url).pathname);
  });
  const app = createApp(testConfig(), defineApp({ ...(await loadApp()), api }), {
    assets: await clientAssets(),
    log: () => {},
  });
  const res = await app.handle(new Request("http://localhost/items/7"));
  expect(res.status).toBe(200);
  expect(seen).toEqual(["/items/7"]);
});
