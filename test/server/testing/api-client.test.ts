// brisk/test's apiClientFor: the fixture app's API called through Eden treaty, in-process and on a socket, with
// typed bodies and answers: the route's own, and Brisk's failures (422 fields, 403 with its reason, 500 digest).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { apiClientFor, listenApp, serveApp, type ListeningApp, type ServedApp } from "brisk/test";
import type { api } from "../../fixtures/app/api.server.ts";
import { FIXTURE } from "../../support/app.ts";

const ELSEWHERE = "https://elsewhere.example";

let served: ServedApp;
let listening: ListeningApp;
beforeAll(async () => {
  [served, listening] = await Promise.all([serveApp(FIXTURE), listenApp(FIXTURE)]);
});
afterAll(() => Promise.all([served.stop(), listening.stop()]));

describe.each([
  ["in-process", () => served],
  ["on its socket", () => listening],
] as const)("%s", (_, app) => {
  test("a post answers its typed data, and a GET with a path param finds it", async () => {
    const client = apiClientFor<typeof api>(app());
    const created = await client.api.notes.post({ text: "through Eden" });
    expect(created.status).toBe(201);
    expect(created.error).toBeNull();
    const note: { id: number; text: string } | null = created.data;
    expect(note).toEqual({ id: expect.any(Number), text: "through Eden" });
    const read = await client.api.notes({ id: note!.id }).get();
    expect(read.data).toEqual(note!);
  });

  test("every write carries the app's own Origin: a cross-site Referer beside it does not get it refused", async () => {
    const client = apiClientFor<typeof api>(app());
    // Without an Origin the server judges a write by its Referer: this one would be refused as cross-site.
    const { status, error } = await client.api.notes.post(
      { text: "same origin" },
      { headers: { referer: `${ELSEWHERE}/page` } },
    );
    expect(error).toBeNull();
    expect(status).toBe(201);
  });

  test("a write from another origin is the typed 403, with the reason", async () => {
    const client = apiClientFor<typeof api>(app());
    const { data, error } = await client.api.notes.post({ text: "from elsewhere" }, { headers: { origin: ELSEWHERE } });
    expect(data).toBeNull();
    if (error?.status !== 403) throw new Error(`expected a 403, got ${error?.status}`);
    const reason: string | undefined = error.value.reason;
    expect(reason).toStartWith(`Origin ${ELSEWHERE} is not http`);
    expect(error.value.error).toBe("cross-site request refused");
  });

  test("a body its schema refuses is the typed 422 with the fields Brisk names, not Elysia's own shape", async () => {
    const client = apiClientFor<typeof api>(app());
    const { error } = await client.api.notes.post({ text: "" });
    if (error?.status !== 422) throw new Error(`expected a 422, got ${error?.status}`);
    const fields: Readonly<Record<string, string>> = error.value.fields;
    expect(fields).toEqual({ text: expect.any(String) });
    expect(error.value.error).toBe("invalid request");
  });

  test("a body of another shape is a type error, and the server's 422 if sent all the same", async () => {
    const client = apiClientFor<typeof api>(app());
    // @ts-expect-error: the route's schema wants `text`
    const { error } = await client.api.notes.post({ note: "x" });
    expect(error?.status).toBe(422);
  });

  test("an outcome and a failure: 403 from forbidden(), 500 with the digest and the request id", async () => {
    const client = apiClientFor<typeof api>(app());
    const refused = await client.api.forbidden.get();
    expect(refused.error).toMatchObject({ status: 403, value: { error: "forbidden" } });
    const failed = await client.api.fails.get();
    if (failed.error?.status !== 500) throw new Error(`expected a 500, got ${failed.error?.status}`);
    const { digest, requestId }: { digest: string; requestId: string } = failed.error.value;
    expect(digest).toMatch(/^[0-9a-z]{10}$/);
    expect(requestId).toBe(failed.response.headers.get("x-request-id")!);
  });

  test("a date-like string in the answer stays a string, as its type says", async () => {
    const client = apiClientFor<typeof api>(app());
    const { data } = await client.api.notes.post({ text: "2026-05-01" });
    expect(data?.text).toBe("2026-05-01");
  });
});
