// api.server.ts: the example app's JSON API: who is signed in, the guestbook with the same entries and rules
// as its page's form, and a route that fails.
import { Elysia, t } from "elysia";
import { requestCookies, revalidateTag } from "brisk/server";
import { store } from "./lifecycle.server.ts";
import { sessions } from "./sessions.server.ts";
import { validateEntry } from "./store/entry.ts";

export const api = new Elysia({ prefix: "/api" })
  // Who is signed in, from the same session the pages read: a forged, absent or signed-out cookie is nobody.
  .get("/session", async ({ request }) => ({
    name: (await sessions.getSession(requestCookies(request))).get("user")?.name ?? null,
  }))
  .get("/guestbook", async () => ({ entries: await store().guestbook.listEntries() }))
  .post(
    "/guestbook",
    // status(): each answer typed under its own status, so a typed client (apiClient) tells them apart.
    async ({ body, set, status }) => {
      const checked = validateEntry(body);
      if (!checked.ok) return status(422, { error: "invalid request", fields: checked.errors });
      const entry = await store().guestbook.addEntry(checked.entry);
      // As the page's form does: the pages cached under the tag render afresh.
      await revalidateTag("guestbook");
      set.headers.location = `/examples/guestbook/${entry.id}`;
      return status(201, entry);
    },
    // The shape here (Elysia's schema: a 422 naming the field); the rules (lengths, characters) in validateEntry.
    { body: t.Object({ name: t.String(), message: t.String() }) },
  )
  // What an API route's failure looks like: a 500 JSON with the digest and the request id, reported once.
  .get("/boom", (): never => {
    throw new Error("Example failure in an API route (/api/boom)");
  });
