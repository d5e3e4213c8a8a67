// Session.server.ts: signing in with a name (a session kept in the store), signing out, a secret for the
// signed-in visitor (the account pages that need the session are Account.server.ts).
import { data, redirect, returnTo, type ActionContext, type LoaderContext } from "brisk";
import { sessions } from "../sessions.server.ts";

const MAX_NAME = 80;

/** Where signing in leads when the visitor came for no page in particular, or `next` is not a path on this site. */
const AFTER_SIGN_IN = "/examples/account";

export async function sessionLoader({ cookies, search }: LoaderContext) {
  const session = await sessions.getSession(cookies);
  // The page the account guard sent the visitor from (`?next=`): the form carries it through its post.
  const next = returnTo(search.get("next"), AFTER_SIGN_IN);
  return { name: session.get("user")?.name ?? null, flash: (await session.flashed("notice")) ?? null, next };
}

export async function sessionAction({ body, cookies }: ActionContext) {
  const form = body.kind === "form" ? body.form : undefined;
  const intent = form?.get("intent");
  const session = await sessions.getSession(cookies);
  if (intent === "sign-out") {
    // The record is deleted: the cookie, or a copy of it, is nobody's now. The notice, for a visitor who was
    // signed in, waits in the cookie (flash values alone make no record).
    const wasSignedIn = session.get("user") !== undefined;
    await session.destroy();
    if (wasSignedIn) await session.flash("notice", "Signed out");
    redirect("/examples/session");
  }
  // The "Reveal the secret" fetcher: for a signed-in visitor only. Signed out, the 401 page shows, in place of
  // this one with JavaScript (the URL unchanged), or as the document the browser's own post gets without it.
  if (intent === "reveal") {
    const { name } = await sessions.requireUser(cookies);
    return { secret: `Only you can read this, ${name}: the session cookie is signed, so nobody else can be you.` };
  }
  const raw = form?.get("name");
  const name = typeof raw === "string" ? raw.trim() : "";
  if (name.length === 0 || [...name].length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(name)) {
    return data(
      { error: `A name is 1 to ${MAX_NAME} characters`, name: typeof raw === "string" ? raw : "" },
      { status: 422 },
    );
  }
  // A fresh session: nothing set before signing in (by this visitor or planted by another) carries over.
  await session.renew();
  await session.set("user", { name });
  redirect(returnTo(form?.get("next"), AFTER_SIGN_IN));
}
