// Guestbook.server.ts: the guestbook's loader (the newest entries), its action (sign it), an entry's loader, and
// the like button's action-only route. Each write drops the pages cached under the tag "guestbook".
import { data, notFound, redirect, type ActionContext, type LoaderContext } from "brisk";
import { revalidateTag } from "brisk/server";
import { store } from "../lifecycle.server.ts";
import { parseEntryId, validateEntry } from "../store/entry.ts";

export async function guestbookLoader() {
  return { entries: await store().guestbook.listEntries() };
}

export async function signGuestbook({ body }: ActionContext) {
  const checked = validateEntry(body.kind === "form" ? body.form : body.json);
  // The page again, with the errors and what the visitor typed, and 422: nothing was stored.
  if (!checked.ok) return data({ errors: checked.errors, values: checked.values }, { status: 422 });
  await store().guestbook.addEntry(checked.entry);
  // Written: the pages kept under the tag (/examples/popular) render afresh, here and on the other instances.
  await revalidateTag("guestbook");
  // 303 after a post: a reload shows the list, it does not sign again.
  redirect("/examples/guestbook");
}

export async function entryLoader({ params }: LoaderContext<{ id: string }>) {
  const id = parseEntryId(params.id);
  const entry = id === undefined ? undefined : await store().guestbook.getEntry(id);
  return entry ?? notFound();
}

/**
 * POST /examples/guestbook/:id/like, a route without a page or a loader: one more like, then 303 back to the
 * list (a reload there does not like again); 404 for an entry that is not there. A GET is 405 (Brisk's).
 */
export async function likeEntry({ params }: ActionContext<{ id: string }>) {
  const id = parseEntryId(params.id);
  const liked = id === undefined ? undefined : await store().guestbook.like(id);
  if (!liked) notFound();
  await revalidateTag("guestbook");
  redirect("/examples/guestbook");
}
