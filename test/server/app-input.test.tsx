// The app as an input: createApp serves whatever app it is handed (here the fixture app in test/fixtures),
// with its API routes answering JSON, outcomes answering for themselves anywhere, and every request logged.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import { defineApp } from "../../src/runtime/app-definition.ts";
import { notFound } from "../../src/runtime/outcome.ts";
import { createApp } from "../../src/server/create-app.ts";
import type { LogRecord } from "../../src/server/monitoring/logger.ts";
import { logFor, serveApp, type ServedApp } from "brisk/test";
import { clientAssets, FIXTURE, loadApp, serveWith, testConfig } from "../support/app.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
});

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("pages of the app it is given", () => {
  test("a route with typed params gets them decoded, in its loader and in useParams", async () => {
    const html = await (await t.request("/items/a%20b")).text();
    expect(html).toContain("item <!-- -->a b<!-- --> of <!-- -->a b");
  });

  test("an imported image is the same hashed /assets/ URL in the server's HTML and in the client build", async () => {
    const html = await (await t.request("/")).text();
    const src = /<img src="(\/assets\/mark-[a-z0-9]+\.svg)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    const res = await t.request(src!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(await res.text()).toContain("<svg");
  });

  test("the app's stylesheet is linked on every page, its route stylesheet only on its route", async () => {
    const home = await (await t.request("/")).text();
    const lazy = await (await t.request("/lazy")).text();
    expect(home).toMatch(/href="\/assets\/styles-[a-z0-9]+\.css"/);
    expect(home).not.toMatch(/href="\/assets\/lazy-[a-z0-9]+\.css"/);
    expect(lazy).toMatch(/href="\/assets\/lazy-[a-z0-9]+\.css"/);
  });

  test("another app, with no API and its own pages, needs nothing but its definition", async () => {
    const fixture = await loadApp();
    const other = defineApp({
      ...fixture,
      api: undefined,
      routes: [{ path: "/", component: () => <p>another app</p> }],
    });
    const app = createApp(testConfig(), other, { assets: await clientAssets(), log: () => {} });
    const home = await app.handle(new Request("http://localhost/"));
    expect(await home.text()).toContain("another app");
    expect((await app.handle(new Request("http://localhost/search"))).status).toBe(404);
    const api = await app.handle(new Request("http://localhost/api/notes"));
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: "not found" });
  });
});

describe("API routes", () => {
  test("GET and POST answer JSON, with the request id and security headers pages get", async () => {
    const created = await t.request("/api/notes", json({ text: "hello" }));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ text: "hello" });
    expect(created.headers.get("x-request-id")).toBeTruthy();
    expect(created.headers.get("x-content-type-options")).toBe("nosniff");
    const list = await t.request("/api/notes");
    expect(list.status).toBe(200);
    expect((await list.json()).notes).toContainEqual(expect.objectContaining({ text: "hello" }));
    expect(await logFor(t.logs, list)).toMatchObject({ level: "info", method: "GET", path: "/api/notes", status: 200 });
  });

  test("a malformed body is a JSON 400 with its request id and log line, never a crashed hook", async () => {
    const res = await t.request("/api/notes", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{bad",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "the body is not valid JSON" });
    const id = res.headers.get("x-request-id");
    expect(id).toBeTruthy();
    expect(await logFor(t.logs, res)).toMatchObject({ level: "info", status: 400, path: "/api/notes", requestId: id });
  });

  test("bodies are read within ACTION_MAX_BYTES (413) and must be JSON or a form (415)", async () => {
    const small = await serveApp({ ...FIXTURE, env: { ACTION_MAX_BYTES: "1024" } });
    const big = await small.request("/api/notes", json({ text: "x".repeat(2000) }));
    expect(big.status).toBe(413);
    expect((await big.json()).error).toContain("1024");
    const text = await t.request("/api/notes", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "hi",
    });
    expect(text.status).toBe(415);
    expect(text.headers.get("content-type")).toBe("application/json;charset=utf-8");
    const form = await t.request("/api/notes", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "text=from+a+form",
    });
    expect(form.status).toBe(201);
  });

  test("a body that fails the schema is a 422 naming the field", async () => {
    const res = await t.request("/api/notes", json({ text: "" }));
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error).toBe("invalid request");
    expect(Object.keys(body.fields)).toEqual(["text"]);
  });

  test("an unknown path under /api/ is a JSON 404, never the HTML not-found page", async () => {
    for (const path of ["/api/nothing", "/api", "/api/notes/1/deeper"]) {
      const res = await t.request(path);
      expect({ path, status: res.status, type: res.headers.get("content-type") }).toEqual({
        path,
        status: 404,
        type: "application/json;charset=utf-8",
      });
    }
  });

  test("a known path with another method is a JSON 405 with Allow", async () => {
    const res = await t.request("/api/notes", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")?.split(", ").sort()).toEqual(["GET", "HEAD", "POST"]);
    expect(await res.json()).toEqual({ error: "method not allowed" });
  });

  test("an error is a JSON 500 with the digest and request id, logged and captured once", async () => {
    const captured: unknown[] = [];
    const app = await serveWith(FIXTURE, { capture: (e) => void captured.push(e) });
    const res = await app.request("/api/fails");
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({
      error: "internal server error",
      digest: expect.stringMatching(/^[0-9a-z]{10}$/),
      requestId: res.headers.get("x-request-id"),
    });
    expect(JSON.stringify(body)).not.toContain("Fixture failure");
    expect(await logFor(app.logs, res)).toMatchObject({
      level: "error",
      status: 500,
      digest: body.digest,
      phase: "handler",
    });
    expect(captured).toHaveLength(1);
  });
});

describe("outcomes answer for themselves outside the page pipeline", () => {
  test.each([
    ["/api/notes/999", 404, { error: "not found" }],
    ["/api/forbidden", 403, { error: "forbidden" }],
  ])("%s: %i as JSON, logged as info and never captured", async (path, status, body) => {
    const captured: unknown[] = [];
    const app = await serveWith(FIXTURE, { capture: (e) => void captured.push(e) });
    const res = await app.request(path);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual(body);
    expect(await logFor(app.logs, res)).toMatchObject({ level: "info", status });
    expect(captured).toEqual([]);
  });

  test("a redirect can be 303, with its Location", async () => {
    const res = await t.request("/api/moved");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/api/notes");
  });

  test("notFound() in a plugin outside /api/ is a plain-text 404, not a 500", async () => {
    const logs: LogRecord[] = [];
    const plugin = new Elysia().get("/hooks/thing", () => notFound());
    const app = createApp(
      testConfig(),
      { ...(await loadApp()), api: plugin },
      { assets: await clientAssets(), log: (r) => logs.push(r) },
    );
    const res = await app.handle(new Request("http://localhost/hooks/thing"));
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await logFor(logs, res)).toMatchObject({ level: "info", status: 404 });
  });
});

test("/healthz answers text/plain", async () => {
  const res = await t.request("/healthz");
  expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(await res.text()).toBe("ok\n");
});

test("the app's server.start is handed its mode, data folder and database URL, and none of the operator's secrets", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "brisk-started-"));
  const secret = "an operator cookie secret that is long enough to sign with";
  await serveApp({
    app: join(import.meta.dir, "../fixtures/started-app/app.ts"),
    env: {
      DATA_DIR: dataDir,
      COOKIE_SECRET: secret,
      DATABASE_URL: "postgres://app@127.0.0.1:9/db",
      SENTRY_DSN: "http://key@127.0.0.1:9/1",
    },
  });
  const handed = await Bun.file(join(dataDir, "started")).json();
  expect(Object.keys(handed).sort()).toEqual(["dataDir", "databaseUrl", "mode"]);
  expect(handed).toEqual({ mode: "production", dataDir, databaseUrl: "postgres://app@127.0.0.1:9/db" });
});
