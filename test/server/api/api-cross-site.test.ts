// api-cross-site.test.ts: writes to the API from another site's pages are refused (403 JSON) before the body is
// read, by the rule that guards page actions; a route that opts out (a public webhook) takes them.
import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { allowCrossSite } from "brisk/server";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { createApp } from "../../../src/server/create-app.ts";
import type { LogRecord } from "../../../src/server/monitoring/logger.ts";
import { logFor } from "brisk/test";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";

const notes: string[] = [];
const hooks: string[] = [];

const jsonApi = new Elysia({ prefix: "/api" })
  .use(allowCrossSite)
  .get("/notes", () => ({ notes }))
  .post("/notes", ({ body, set }) => ((set.status = 201), notes.push(body.text), { ok: true }), {
    body: t.Object({ text: t.String() }),
  })
  .put("/notes/:i", ({ params, body }) => ((notes[Number(params.i)] = body.text), { ok: true }), {
    body: t.Object({ text: t.String() }),
  })
  .patch("/notes/:i", ({ params, body }) => ((notes[Number(params.i)] = body.text), { ok: true }), {
    body: t.Object({ text: t.String() }),
  })
  .delete("/notes", () => ((notes.length = 0), { ok: true }))
  .post(
    "/hooks/:source",
    ({ params, body }) => (hooks.push(`${params.source}:${JSON.stringify(body)}`), { received: true }),
    {
      allowCrossSite: true,
    },
  );

// An app's API may serve a path outside /api/ too: its writes are guarded the same way.
const api = new Elysia().use(jsonApi).post("/outside", () => (notes.push("outside"), "ok"));

type Handle = (path: string, init?: RequestInit) => Promise<Response>;
let request: Handle;
let behindProxy: Handle;
let logs: LogRecord[];

beforeAll(async () => {
  const fixture = await loadApp();
  const assets = await clientAssets();
  const serve = (env: Record<string, string>, log: (r: LogRecord) => void = () => {}): Handle => {
    const app = createApp(testConfig(env), defineApp({ ...fixture, api }), { assets, log });
    return (path, init) => app.handle(new Request(`http://localhost${path}`, init));
  };
  logs = [];
  request = serve({}, (r) => logs.push(r));
  behindProxy = serve({ TRUST_PROXY: "1" });
});

beforeEach(() => {
  notes.length = 0;
  hooks.length = 0;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_BODY = { "content-type": "application/json" };
const EVIL = { origin: "https://evil.example" };

describe("a write from another site is refused before its body is read", () => {
  test("a cross-site form post to an API route: 403 JSON saying why, nothing stored", async () => {
    const res = await request("/api/notes", { method: "POST", headers: { ...FORM, ...EVIL }, body: "text=pwned" });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(await res.json()).toEqual({
      error: "cross-site request refused",
      reason: "Origin https://evil.example is not http://localhost",
    });
    expect(await (await request("/api/notes")).json()).toEqual({ notes: [] });
  });

  test("no byte of the refused body is pulled from the connection (a same-origin one is)", async () => {
    const pulledFrom = async (origin: string) => {
      let pulled = false;
      // No high-water mark: the stream is pulled only when someone reads it.
      const body = new ReadableStream(
        {
          pull(controller) {
            pulled = true;
            controller.enqueue(new TextEncoder().encode('{"text":"streamed"}'));
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      const res = await request("/api/notes", { method: "POST", headers: { ...JSON_BODY, origin }, body });
      return [res.status, pulled];
    };
    expect(await pulledFrom("https://evil.example")).toEqual([403, false]);
    expect(await pulledFrom("http://localhost")).toEqual([201, true]);
  });

  test.each(["PUT", "PATCH", "DELETE"])("%s with Sec-Fetch-Site: cross-site is refused too", async (method) => {
    notes.push("kept");
    const path = method === "DELETE" ? "/api/notes" : "/api/notes/0";
    const body = method === "DELETE" ? undefined : JSON.stringify({ text: "changed" });
    const res = await request(path, { method, headers: { ...JSON_BODY, "sec-fetch-site": "cross-site" }, body });
    expect(res.status).toBe(403);
    expect(notes).toEqual(["kept"]);
  });

  test("a method sent in lower case is the same write", async () => {
    notes.push("kept");
    const res = await request("/api/notes/0", {
      method: "patch",
      headers: { ...JSON_BODY, ...EVIL },
      body: '{"text":"changed"}',
    });
    expect(res.status).toBe(403);
    expect(notes).toEqual(["kept"]);
  });

  test("a route of the app's API outside /api/ is guarded too, answered in plain text", async () => {
    const res = await request("/outside", { method: "POST", headers: EVIL });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe("cross-site request refused: Origin https://evil.example is not http://localhost\n");
    expect(notes).toEqual([]);
  });

  test("a foreign Referer without Origin, and Origin: null, are refused", async () => {
    for (const headers of [{ referer: "https://evil.example/page" }, { origin: "null" }] as Record<string, string>[]) {
      const res = await request("/api/notes", {
        method: "POST",
        headers: { ...JSON_BODY, ...headers },
        body: '{"text":"x"}',
      });
      expect(res.status).toBe(403);
    }
    expect(notes).toEqual([]);
  });

  test("the refusal is an API answer like any other: security headers and a log line with its status", async () => {
    const res = await request("/api/notes", { method: "DELETE", headers: EVIL });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(await logFor(logs, res)).toMatchObject({ method: "DELETE", path: "/api/notes", status: 403 });
  });
});

describe("what goes through", () => {
  test("a same-origin form post and a same-origin JSON post store their note", async () => {
    const form = await request("/api/notes", {
      method: "POST",
      headers: { ...FORM, origin: "http://localhost" },
      body: "text=from+a+form",
    });
    expect(form.status).toBe(201);
    const json = await request("/api/notes", {
      method: "POST",
      headers: { ...JSON_BODY, "sec-fetch-site": "same-origin", referer: "http://localhost/x" },
      body: '{"text":"json"}',
    });
    expect(json.status).toBe(201);
    expect(notes).toEqual(["from a form", "json"]);
  });

  test("a call that is not a browser's (no Origin, Referer or Sec-Fetch-Site) goes through, as for page actions", async () => {
    expect((await request("/api/notes", { method: "POST", headers: JSON_BODY, body: '{"text":"curl"}' })).status).toBe(
      201,
    );
  });

  test("reads from another site are not writes: GET answers", async () => {
    expect((await request("/api/notes", { headers: { ...EVIL, "sec-fetch-site": "cross-site" } })).status).toBe(200);
  });

  test("a route with `allowCrossSite: true` takes a cross-site post; its neighbours still refuse one", async () => {
    const res = await request("/api/hooks/payments", {
      method: "POST",
      headers: { ...FORM, ...EVIL, "sec-fetch-site": "cross-site" },
      body: "paid=1",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect(hooks).toEqual(['payments:{"paid":"1"}']);
    expect(
      (await request("/api/notes", { method: "POST", headers: { ...FORM, ...EVIL }, body: "text=x" })).status,
    ).toBe(403);
  });

  test("an unknown API path from another site is refused before it is found missing", async () => {
    expect((await request("/api/nothing", { method: "POST", headers: EVIL })).status).toBe(403);
  });

  test("behind a trusted proxy the site's origin is X-Forwarded-Proto and X-Forwarded-Host's", async () => {
    const proxied = {
      ...JSON_BODY,
      origin: "https://shop.example",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "shop.example",
    };
    const init = { method: "POST", headers: proxied, body: '{"text":"proxied"}' };
    expect((await behindProxy("/api/notes", init)).status).toBe(201);
    // Without TRUST_PROXY anyone could claim to be any origin with those headers.
    expect((await request("/api/notes", init)).status).toBe(403);
    expect(notes).toEqual(["proxied"]);
  });
});
