// Account.server.ts: the signed-in area. Its layout's middleware is the guard: it runs on every request into
// /examples/account and below (the pages, their page data whatever the client keeps, the notes form's post,
// the CSV export) before any loader or action, and puts the visitor in the request's context once.
import { createContext, data, redirect, type ActionContext, type LoaderContext, type Middleware } from "brisk";
import { store } from "../lifecycle.server.ts";
import { sessions } from "../sessions.server.ts";
import { validateNote } from "../store/note.ts";

const userContext = createContext<{ name: string }>();

/** 401 (the sign-in page) for a visitor without a live session, else who they are, for everything below. */
export const signedIn: Middleware = async ({ cookies, context }) => {
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
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break. A field that a spreadsheet would
 * read as a formula (=, +, -, @, a tab or CR first) gets a leading apostrophe: a note is what a visitor typed.
 */
function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The most notes one export holds: what one request makes the server hold stays bounded. */
const EXPORT_LIMIT = 10_000;

export async function notesCsvLoader({ context }: LoaderContext) {
  const notes = await store().notes.list(context.get(userContext).name, { limit: EXPORT_LIMIT });
  const rows = [["id", "text"], ...notes.map((note) => [note.id, note.text])];
  const csv = rows.map((row) => row.map(csvField).join(",")).join("\r\n");
  return new Response(`${csv}\r\n`, {
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="notes.csv"', "cache-control": "private, no-store" },
  });
}
