// Account.server.ts: the signed-in area. Its layout's middleware is the guard: it runs on every request into
// /examples/account and below (the pages, their page data whatever the client keeps, the notes form's post,
// the CSV export) before any loader or action, and puts the visitor in the request's context once.
import {
  createRouterContext,
  data,
  href,
  redirect,
  type ActionContext,
  type LoaderContext,
  type Middleware,
} from "brisk";
import { store } from "../lifecycle.server.ts";
import { sessions } from "../sessions.server.ts";
import { validateNote } from "../store/note.ts";

const userContext = createRouterContext<{ name: string }>();

/**
 * A browser asking for a page (GET or HEAD, HTML): a visitor who navigated here, whom sign-in can bring back.
 * Page data (a client navigation shows the 401 page in place), fetchers, posts and scripts get the 401: they want
 * an answer, not a page to sign in on, and a post's body would be lost on the way.
 */
const isPageVisit = (request: Request) =>
  (request.method === "GET" || request.method === "HEAD") &&
  (request.headers.get("accept") ?? "").includes("text/html");

/**
 * A visitor without a live session: sent to sign in, and back here after (`next`), when their browser asked for the
 * page; else 401 (the sign-in-required page). Signed in: who they are, for everything below.
 */
export const signedIn: Middleware = async ({ cookies, context, request, url }) => {
  const session = await sessions.getSession(cookies);
  if (!session.get("user") && isPageVisit(request))
    redirect(href("/examples/session", {}, { next: url.pathname + url.search }));
  context.set(userContext, await sessions.requireUser(cookies));
};

export function accountLoader({ context }: LoaderContext) {
  return { name: context.get(userContext).name };
}

export async function notesLoader({ context }: LoaderContext) {
  return { notes: await store().notes.list(context.get(userContext).name) };
}

export async function addNote({ body, context }: ActionContext) {
  const checked = validateNote(body.kind === "form" ? body.form.get("text") : undefined);
  if (!checked.ok) return data({ error: checked.error, text: checked.value }, { status: 422 });
  await store().notes.add(context.get(userContext).name, checked.text);
  redirect("/examples/account/notes");
}

/**
 * Where a formula could start in a note: at the start of the field, or after anything some spreadsheet splits
 * cells at (a comma, a `;` or tab where the locale's list separator is one, a line break), quotes and spaces
 * between. Excel with a `;` list separator reads `1,x;=1+1` as two cells, the second a formula, quoted or not.
 */
const FORMULA_START = /(^|[,;\t\r\n])([ "]*)(?=[=+\-@\t\r])/g;

/**
 * One CSV field (RFC 4180): quoted when it holds a quote or any such separator. Each place a formula (=, +, -,
 * @, a tab or CR) could start gets an apostrophe, which spreadsheets read as "text": a note is what a visitor
 * typed.
 */
function csvField(value: string | number): string {
  if (typeof value === "number") return String(value);
  const text = value.replace(FORMULA_START, "$1$2'");
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The most notes one export holds: what one request makes the server hold stays bounded. */
const EXPORT_LIMIT = 10_000;

export async function notesCsvLoader({ context }: LoaderContext) {
  const notes = await store().notes.list(context.get(userContext).name, { limit: EXPORT_LIMIT });
  const rows = [["id", "text"], ...notes.map((note) => [note.id, note.text])];
  const csv = rows.map((row) => row.map(csvField).join(",")).join("\r\n");
  return new Response(`${csv}\r\n`, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="notes.csv"',
      "cache-control": "private, no-store",
    },
  });
}
