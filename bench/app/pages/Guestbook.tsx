// Guestbook.tsx: the newest entries and the form that adds one, with or without JavaScript.
import { Form, useActionData, useLoaderData } from "brisk";
import { ENTRY_LIMITS } from "../guestbook/entry.ts";
import { Frame } from "./Frame.tsx";
import type { Entry } from "../guestbook/store.server.ts";
import type { guestbookLoader, signGuestbook } from "./guestbook.server.ts";

export function Guestbook() {
  const { entries } = useLoaderData<typeof guestbookLoader>();
  const answer = useActionData<typeof signGuestbook>();
  const errors = answer?.errors ?? {};
  return (
    <Frame title="Guestbook">
      <Form className="guestbook-form">
        <label>
          Name <input name="name" required maxLength={ENTRY_LIMITS.name} defaultValue={answer?.values.name} />
        </label>
        {errors.name ? <p className="field-error">{errors.name}</p> : null}
        <label>
          Message{" "}
          <textarea
            name="message"
            required
            maxLength={ENTRY_LIMITS.message}
            rows={3}
            defaultValue={answer?.values.message}
          />
        </label>
        {errors.message ? <p className="field-error">{errors.message}</p> : null}
        <button type="submit">Sign</button>
      </Form>
      <Entries entries={entries} />
    </Frame>
  );
}

/** The newest entries alone, kept in the render cache until a write revalidates them (bench/render-cache.ts). */
export function CachedGuestbook() {
  const { entries } = useLoaderData<typeof guestbookLoader>();
  return (
    <Frame title="Guestbook, cached">
      <Entries entries={entries} />
    </Frame>
  );
}

function Entries({ entries }: { entries: readonly Entry[] }) {
  return (
    <ol>
      {entries.map((e) => (
        <li key={e.id}>
          <strong>{e.name}</strong>: {e.message}
        </li>
      ))}
    </ol>
  );
}
