// The example app's failures as Sentry receives them, through the server in-process with its Sentry on, against
// a fake ingest: GET /api/boom answers JSON with its digest and request id, and is one event named after its route.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { logFor, serveApp, startFakeIngest, type FakeIngest, type ServedApp } from "brisk/test";

let ingest: FakeIngest;
let t: ServedApp;

beforeAll(async () => {
  ingest = await startFakeIngest();
  t = await serveApp({ env: { SENTRY_DSN: ingest.dsn() }, sentry: true });
});

afterAll(async () => {
  await t?.sentry?.close(2_000);
  await ingest?.stop();
});

test("GET /api/boom: a 500 JSON with the digest and the request id, reported once as GET /api/boom", async () => {
  const res = await t.request("/api/boom");
  expect(res.status).toBe(500);
  expect(res.headers.get("content-type")).toStartWith("application/json");
  const body = (await res.json()) as { error: string; digest: string; requestId: string };
  expect(body).toEqual({
    error: "internal server error",
    digest: expect.stringMatching(/^[0-9a-z]{10}$/),
    requestId: res.headers.get("x-request-id")!,
  });
  expect(await t.sentry!.flush(2_000)).toBe(true);
  const events = ingest.events();
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    transaction: "GET /api/boom",
    tags: { digest: body.digest, route: "/api/boom", phase: "handler" },
  });
  expect(events[0]?.exception?.values?.at(-1)?.value).toBe("Example failure in an API route (/api/boom)");
  expect(await logFor(t.logs, res)).toMatchObject({
    level: "error",
    status: 500,
    route: "/api/boom",
    digest: body.digest,
  });
});
