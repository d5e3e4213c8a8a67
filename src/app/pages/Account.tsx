// Account.tsx: the signed-in area: a layout naming the visitor, its index, and the visitor's notes with a form
// to add one and a CSV export. Nothing here checks who is signed in: the layout's middleware did (Account.server.ts).
import { Form, Link, Outlet, useActionData, useLoaderData } from "brisk";
import { MAX_NOTE } from "../store/note.ts";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { accountLoader, addNote, notesLoader } from "./Account.server.ts";
import { SignOut } from "./Session.tsx";

export function AccountLayout() {
  const { name } = useLoaderData<typeof accountLoader>();
  return (
    <ExampleFrame title="Account">
      <p id="account-name">{`Signed in as ${name}`}</p>
      <nav className="account-nav">
        <Link href="/examples/account">Overview</Link> <Link href="/examples/account/notes">Notes</Link>
      </nav>
      <Outlet />
      <SignOut />
    </ExampleFrame>
  );
}

export function AccountHome() {
  return (
    <p>
      Everything under this page is guarded by one middleware on its layout: the pages, their page data, the notes form
      and the <a href="/examples/account/notes.csv">CSV export</a> all answer 401 without a session. Your{" "}
      <Link href="/examples/account/notes">notes</Link>.
    </p>
  );
}

export function Notes() {
  const { notes } = useLoaderData<typeof notesLoader>();
  const failed = useActionData<typeof addNote>();
  return (
    <section>
      <h2>Your notes</h2>
      <Form className="add-note">
        <label>
          A note
          <input name="text" required maxLength={MAX_NOTE} defaultValue={failed?.text} />
        </label>
        {failed ? <p className="field-error">{failed.error}</p> : null}
        <button type="submit">Add</button>
      </Form>
      <ul id="notes">
        {notes.map((note) => (
          <li key={note.id}>{note.text}</li>
        ))}
      </ul>
      <p>
        <a href="/examples/account/notes.csv" download>
          Download as CSV
        </a>
      </p>
    </section>
  );
}
