// api.test.ts: what an app's API routes get from Brisk: the field a schema refused, named whatever part of the
// request it was in, and the same signed cookies as pages through `brisk/server`.
import { beforeAll, describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { requestCookies } from "brisk/server";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { createCookieSigner } from "../../../src/server/cookies/cookie-signer.ts";
import { createCookies } from "../../../src/server/cookies/cookies.ts";
import { written } from "../../fixtures/app/loaders.server.ts";
import { serveApp, type ServedApp } from "brisk/test";
import { clientAssets, FIXTURE, loadApp, testConfig } from "../../support/app.ts";

const SECRET = "an api test secret that is long enough to sign with";

const api = new Elysia({ prefix: "/api" })
  .get("/page", ({ query }) => ({ limit: query.limit, offset: query.offset ?? 0 }), {
    query: t.Object({ limit: t.Numeric({ minimum: 1 }), offset: t.Optional(t.Numeric({ minimum: 0 })) }),
  })
  .get("/items/:id", ({ params }) => params, { params: t.Object({ id: t.Numeric() }) })
  .post("/notes", ({ body }) => body, { body: t.Object({ text: t.String({ minLength: 1 }) }) })
  .post(
    "/session",
    async ({ request, body }) => {
      await requestCookies(request).setSigned("session", body.name);
      return { ok: true };
    },
    { body: t.Object({ name: t.String() }) },
  )
  .get("/session", async ({ request }) => ({ name: (await requestCookies(request).getSigned("session")) ?? null }))
  .delete("/session", ({ request }) => {
    requestCookies(request).delete("session");
    return { ok: true };
  });

let request: (path: string, init?: RequestInit) => Promise<Response>;
beforeAll(async () => {
  const fixture = await loadApp();
  const app = createApp(testConfig(), defineApp({ ...fixture, api }), {
    assets: await clientAssets(),
    cookieSigner: await createCookieSigner([SECRET]),
    log: () => {},
  });
  request = (path, init) => app.handle(new Request(`http://localhost${path}`, init));
});

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  headers: { "content-type": "application/json", origin: "http://localhost", ...headers },
  body: JSON.stringify(body),
});

describe("a schema's refusal names the field", () => {
  test.each([
    ["/api/page?limit=0", "limit"],
    ["/api/page?limit=3&offset=-1", "offset"],
    ["/api/page", "limit"],
    ["/api/page?limit=many", "limit"],
  ])("%s: 422 naming %s", async (path, field) => {
    const res = await request(path);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; fields: Record<string, string> };
    expect(body.error).toBe("invalid request");
    expect(Object.keys(body.fields)).toEqual([field]);
  });

  test("a value that passes is coerced as the schema says", async () => {
    const res = await request("/api/page?limit=3&offset=0");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ limit: 3, offset: 0 });
  });

  test("a path parameter is named too, and a body field as before", async () => {
    const param = (await (await request("/api/items/x")).json()) as { fields: Record<string, string> };
    expect(Object.keys(param.fields)).toEqual(["id"]);
    const body = await request("/api/notes", json("POST", { text: "" }));
    expect(body.status).toBe(422);
    expect(Object.keys(((await body.json()) as { fields: object }).fields)).toEqual(["text"]);
  });
});

describe("an API route's cookies are the pages' cookies", () => {
  test("a signed cookie set by the API carries the defaults and reads back; a forged one reads as absent", async () => {
    const set = await request("/api/session", json("POST", { name: "ada" }));
    expect(set.status).toBe(200);
    const cookie = set.headers.getSetCookie();
    expect(cookie).toHaveLength(1);
    expect(cookie[0]).toMatch(/^session=[^;]+; Path=\/; Secure; HttpOnly; SameSite=Lax$/);
    const pair = cookie[0]!.split(";")[0]!;

    const back = await request("/api/session", { headers: { cookie: pair } });
    expect(await back.json()).toEqual({ name: "ada" });
    const forged = await request("/api/session", { headers: { cookie: pair.replace("ada", "eve") } });
    expect(await forged.json()).toEqual({ name: null });
    expect(forged.headers.getSetCookie()).toEqual([]);
  });

  test("the signature is the one loaders verify: same secret, same cookie name", async () => {
    const set = await request("/api/session", json("POST", { name: "grace" }));
    const pair = set.headers.getSetCookie()[0]!.split(";")[0]!;
    const asPages = createCookies(pair, {
      secure: true,
      signer: await createCookieSigner(["a newer secret, first in rotation order", SECRET]),
    });
    expect(await asPages.getSigned("session")).toBe("grace");
  });

  test("rotation: with [newer, old] secrets the API reads a cookie the old one signed and signs with the newer; a retired secret's reads as absent", async () => {
    const newer = "a newer secret, first in rotation order";
    const rotated = createApp(testConfig(), defineApp({ ...(await loadApp()), api }), {
      assets: await clientAssets(),
      cookieSigner: await createCookieSigner([newer, SECRET]),
      log: () => {},
    });
    const ask = (path: string, init?: RequestInit) => rotated.handle(new Request(`http://localhost${path}`, init));
    const old = (await request("/api/session", json("POST", { name: "ada" }))).headers
      .getSetCookie()[0]!
      .split(";")[0]!;
    expect(await (await ask("/api/session", { headers: { cookie: old } })).json()).toEqual({ name: "ada" });

    const fresh = (await ask("/api/session", json("POST", { name: "grace" }))).headers
      .getSetCookie()[0]!
      .split(";")[0]!;
    const newerOnly = createCookies(fresh, { secure: true, signer: await createCookieSigner([newer]) });
    expect(await newerOnly.getSigned("session")).toBe("grace");

    const retired = createApp(testConfig(), defineApp({ ...(await loadApp()), api }), {
      assets: await clientAssets(),
      cookieSigner: await createCookieSigner([newer]),
      log: () => {},
    });
    const stale = await retired.handle(new Request("http://localhost/api/session", { headers: { cookie: old } }));
    expect(await stale.json()).toEqual({ name: null });
  });

  test("a deleted cookie expires in the answer", async () => {
    const res = await request("/api/session", { method: "DELETE", headers: { origin: "http://localhost" } });
    expect(res.headers.getSetCookie()[0]).toMatch(/^session=; Path=\/; Expires=/);
  });

  test("outside a request Brisk serves to an API route, asking for cookies is the app's bug, said plainly", () => {
    expect(() => requestCookies(new Request("http://localhost/"))).toThrow(/not one Brisk serves to an API route/);
  });
});

describe("a repeated form field (issue 23, R10)", () => {
  let fixture: ServedApp;
  beforeAll(async () => {
    fixture = await serveApp(FIXTURE);
  });
  const origin = { origin: "http://localhost" };
  const bodies: Array<[string, () => BodyInit]> = [
    [
      "urlencoded",
      () =>
        new URLSearchParams([
          ["text", "first"],
          ["text", "second"],
        ]),
    ],
    [
      "multipart",
      () => {
        const form = new FormData();
        form.append("text", "first");
        form.append("text", "second");
        return form;
      },
    ],
  ];

  test.each(bodies)("reads as its first value, %s, in an action and in an API route alike", async (_, body) => {
    const action = await fixture.request("/form", { method: "POST", headers: origin, body: body() });
    expect(action.status).toBe(303);
    expect(written.at(-1)).toBe("first");
    const route = await fixture.request("/api/notes", { method: "POST", headers: origin, body: body() });
    expect(route.status).toBe(201);
    expect(((await route.json()) as { text: string }).text).toBe("first");
  });
});
