// ApiClientExample.tsx: the guestbook's JSON API called from a component through brisk's typed client: the
// entries loaded once the page has hydrated, and a form that signs through the API and shows its 422's fields.
// A code-split route: the client (Eden's) loads with this page only, off every other page's critical path.
import { useEffect, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { apiClient } from "brisk";
import type { api } from "../api.server.ts";
import type { Entry } from "../store/guestbook.server.ts";
import { ENTRY_LIMITS } from "../store/entry.ts";
import { ExampleFrame } from "./ExampleFrame.tsx";

// Type-only: the browser build replaces *.server.ts modules, and the client needs only the API's type.
const client = apiClient<typeof api>();

export default function ApiClientExample() {
  const [entries, setEntries] = useState<readonly Entry[]>();
  const [fields, setFields] = useState<Readonly<Record<string, string | undefined>>>({});
  const [failure, setFailure] = useState<string>();
  const [signed, setSigned] = useState<Entry>();
  const [pending, setPending] = useState(false);

  async function load() {
    const { data, error } = await client.api.guestbook.get();
    if (error) setFailure(`Loading the entries failed: ${error.value.error}`);
    else setEntries(data.entries);
  }
  useEffect(() => void load(), []);

  async function sign(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const typed = new FormData(form);
    setPending(true);
    const { data, error } = await client.api.guestbook.post({
      name: String(typed.get("name")),
      message: String(typed.get("message")),
    });
    setPending(false);
    setFields(error?.status === 422 ? error.value.fields : {});
    setFailure(error && error.status !== 422 ? `Signing failed (${error.status}): ${error.value.error}` : undefined);
    if (error) return;
    setSigned(data);
    form.reset();
    await load();
  }

  return (
    <ExampleFrame title="Typed API client">
      <p>
        This page calls <code>/api/guestbook</code> with <code>apiClient&lt;typeof api&gt;()</code> from{" "}
        <code>brisk</code>: the body and the answers are typed from the API's own routes, a 422 comes back as a typed{" "}
        <code>error</code> with its fields. It needs JavaScript;{" "}
        <Link href="/examples/guestbook">the guestbook's page</Link> signs the same book without.
      </p>
      {/* No `required`: an empty field goes to the API, to show its 422. */}
      <form className="guestbook-form" onSubmit={(e) => void sign(e)} aria-busy={pending || undefined}>
        <label>
          Name
          <input name="name" maxLength={ENTRY_LIMITS.name} aria-invalid={fields.name ? true : undefined} />
        </label>
        {fields.name ? <p className="field-error">{fields.name}</p> : null}
        <label>
          Message
          <textarea
            name="message"
            maxLength={ENTRY_LIMITS.message}
            rows={3}
            aria-invalid={fields.message ? true : undefined}
          />
        </label>
        {fields.message ? <p className="field-error">{fields.message}</p> : null}
        <button type="submit" disabled={pending}>
          Sign through the API
        </button>
      </form>
      {signed ? (
        <p className="signed">
          Signed as entry <Link href={`/examples/guestbook/${signed.id}`}>#{signed.id}</Link>.
        </p>
      ) : null}
      {failure ? <p className="field-error">{failure}</p> : null}
      <h2>Entries</h2>
      {entries === undefined ? <p>Loading the entries…</p> : null}
      {entries?.length === 0 ? <p className="empty">No entries yet.</p> : null}
      <ol className="entries" aria-busy={entries === undefined || undefined}>
        {entries?.map((e) => (
          <li key={e.id}>
            {e.name}: {e.message}
          </li>
        ))}
      </ol>
    </ExampleFrame>
  );
}
