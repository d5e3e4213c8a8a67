// Session.server.ts: signing in with a name (a signed `session` cookie), signing out, a secret for the signed-in
// visitor, and a page that needs the session.
import { data, redirect, unauthorized, type ActionContext, type LoaderContext } from "brisk";

/** The signed cookie that names the visitor; the API reads the same one (api.server.ts). */
export const SESSION = "session";
const WEEK = 7 * 24 * 60 * 60;
const MAX_NAME = 80;

export async function sessionLoader({ cookies }: LoaderContext) {
  return { name: (await cookies.getSigned(SESSION)) ?? null };
}

export async function sessionAction({ body, cookies }: ActionContext) {
  const form = body.kind === "form" ? body.form : undefined;
  const intent = form?.get("intent");
  if (intent === "sign-out") {
    cookies.delete(SESSION);
    redirect("/examples/session");
  }
  // The "Reveal the secret" fetcher: for a signed-in visitor only. Signed out, the 401 page shows, in place of
  // this one with JavaScript (the URL unchanged), or as the document the browser's own post gets without it.
  if (intent === "reveal") {
    const name = await cookies.getSigned(SESSION);
    if (!name) unauthorized();
    return { secret: `Only you can read this, ${name}: the session cookie is signed, so nobody else can be you.` };
  }
  const raw = form?.get("name");
  const name = typeof raw === "string" ? raw.trim() : "";
  if (name.length === 0 || [...name].length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(name)) {
    return data({ error: `A name is 1 to ${MAX_NAME} characters`, name: typeof raw === "string" ? raw : "" }, { status: 422 });
  }
  // Signed: a visitor who edits the cookie is signed out, not someone else.
  await cookies.setSigned(SESSION, name, { maxAge: WEEK });
  redirect("/examples/account");
}

export async function accountLoader({ cookies }: LoaderContext) {
  const name = await cookies.getSigned(SESSION);
  if (!name) unauthorized();
  return { name };
}
