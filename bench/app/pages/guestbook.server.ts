// guestbook.server.ts: the guestbook's loader (the newest entries) and its action: the form post the bench
// measures, a real insert and 303.
import { data, redirect, type ActionContext } from "brisk";
import { validateEntry } from "../guestbook/entry.ts";
import { guestbook } from "../server.server.ts";

export async function guestbookLoader() {
  return { entries: await (await guestbook()).newest(20) };
}

export async function signGuestbook({ body }: ActionContext) {
  const checked = validateEntry(body.kind === "form" ? body.form : body.json);
  if (!checked.ok) return data({ errors: checked.errors, values: checked.values }, { status: 422 });
  await (await guestbook()).add(checked.entry);
  // 303 after a post: a reload shows the list, it does not sign again.
  redirect("/guestbook");
}
