// The guestbook's API through brisk/test's typed client (apiClientFor), and where the browser's client comes
// from: the chunk of /examples/api-client, never the scripts every page loads.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { apiClientFor, serveApp, type ServedApp } from "brisk/test";
import type { api } from "../../src/app/api.server.ts";

let app: ServedApp;
beforeAll(async () => {
  app = await serveApp();
});
afterAll(() => app.stop());

const client = () => apiClientFor<typeof api>(app);

test("signing through the API: 201 with the entry typed and its Location, then the entry in the list", async () => {
  const { data, error, status, response } = await client().api.guestbook.post({ name: "Eden", message: "  typed  " });
  if (error) throw new Error(`expected the entry, got ${error.status}`);
  expect(status).toBe(201);
  const {
    id,
    name,
    message,
    createdAt,
    likes,
  }: { id: number; name: string; message: string; createdAt: string; likes: number } = data;
  expect({ name, message, likes }).toEqual({ name: "Eden", message: "typed", likes: 0 });
  expect(typeof createdAt).toBe("string");
  expect(response.headers.get("location")).toBe(`/examples/guestbook/${id}`);
  const list = await client().api.guestbook.get();
  expect(list.data?.entries.map((e) => e.id)).toContain(id);
});

test("a blank name and a long message: the typed 422 with each field's message, nothing stored", async () => {
  const before = (await client().api.guestbook.get()).data?.entries.length;
  const { error } = await client().api.guestbook.post({ name: " ", message: "x".repeat(501) });
  if (error?.status !== 422) throw new Error(`expected a 422, got ${error?.status}`);
  expect(error.value.fields).toEqual({ name: "Name is required", message: "Message must be at most 500 characters" });
  expect((await client().api.guestbook.get()).data?.entries.length).toBe(before!);
});

test("another site's post is refused: the typed 403 and its reason", async () => {
  const { error } = await client().api.guestbook.post(
    { name: "Mallory", message: "hi" },
    { headers: { origin: "https://evil.example" } },
  );
  if (error?.status !== 403) throw new Error(`expected a 403, got ${error?.status}`);
  expect(error.value.reason).toBe("Origin https://evil.example is not http://localhost");
});

test("nobody is signed in without a session; /api/boom is the typed 500 with its digest", async () => {
  expect((await client().api.session.get()).data).toEqual({ name: null });
  const { error } = await client().api.boom.get();
  if (error?.status !== 500) throw new Error(`expected a 500, got ${error?.status}`);
  expect(error.value.digest).toMatch(/^[0-9a-z]{10}$/);
});

/** The scripts a page's HTML names (the entry its inline loader starts, the chunks it preloads), fetched, joined. */
async function scriptsOf(path: string): Promise<string> {
  const html = await (await app.request(path)).text();
  const sources = new Set(html.match(/\/assets\/[\w.-]+\.js/g));
  expect([...sources].some((src) => src.includes("/entry-"))).toBe(true);
  return (await Promise.all([...sources].map(async (src) => (await app.request(src)).text()))).join("\n");
}

test("the browser's API client is in /examples/api-client's chunk, not in the scripts of /", async () => {
  const marker = "was called on the server";
  expect(await scriptsOf("/examples/api-client")).toContain(marker);
  expect(await scriptsOf("/")).not.toContain(marker);
});
