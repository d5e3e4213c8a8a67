// api.server.ts: the bench app's JSON API: the items page's data, and a JSON way to sign the guestbook (the
// soak's API write, read in the pool the guestbook's form action shares). A write through the API revalidates the
// cached guestbook on every instance (the form post leaves it: the write bench measures the post as it was).
import { revalidateTag } from "brisk/server";
import { Elysia } from "elysia";
import { GUESTBOOK_TAG } from "./guestbook/cache-tag.ts";
import { validateEntry } from "./guestbook/entry.ts";
import { itemsLoader } from "./pages/items.server.ts";
import { guestbook } from "./server.server.ts";

export const api = new Elysia({ prefix: "/api" })
  .get("/items", () => itemsLoader())
  .post("/guestbook", async ({ body, set }) => {
    const checked = validateEntry(body);
    if (checked.ok) {
      await (await guestbook()).add(checked.entry);
      await revalidateTag(GUESTBOOK_TAG);
    }
    set.status = checked.ok ? 201 : 422;
    return checked.ok ? { signed: true } : { errors: checked.errors };
  });
