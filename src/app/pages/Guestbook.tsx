// Guestbook.tsx: the entries, newest first, and a form that signs the guestbook, with or without JavaScript.
import { Link } from "wouter";
import { Form, useActionData, useFetcher, useFormPending, useLoaderData } from "brisk";
import { ENTRY_LIMITS } from "../store/entry.ts";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { entryLoader, guestbookLoader, signGuestbook } from "./Guestbook.server.ts";

function SignButton() {
  const pending = useFormPending();
  return (
    <button type="submit" disabled={pending}>
      {pending ? "Signing…" : "Sign the guestbook"}
    </button>
  );
}

function SignForm() {
  const answer = useActionData<typeof signGuestbook>();
  const errors = answer?.errors ?? {};
  return (
    <Form className="guestbook-form">
      <label>
        Name
        <input
          name="name"
          required
          maxLength={ENTRY_LIMITS.name}
          defaultValue={answer?.values.name}
          aria-invalid={errors.name ? true : undefined}
        />
      </label>
      {errors.name ? (
        <p className="field-error" id="name-error">
          {errors.name}
        </p>
      ) : null}
      <label>
        Message
        <textarea
          name="message"
          required
          maxLength={ENTRY_LIMITS.message}
          rows={3}
          defaultValue={answer?.values.message}
          aria-invalid={errors.message ? true : undefined}
        />
      </label>
      {errors.message ? (
        <p className="field-error" id="message-error">
          {errors.message}
        </p>
      ) : null}
      <SignButton />
    </Form>
  );
}

/**
 * An entry's likes and its button: a fetcher's form to the action-only route /examples/guestbook/:id/like.
 * With JavaScript off the browser posts it and follows the 303 back here; with it on, the count goes up at
 * once (while the post is on its way) and the list is loaded again after it, without moving the page.
 */
function Likes({ id, likes }: { id: number; likes: number }) {
  const like = useFetcher();
  const shown = like.formData ? likes + 1 : likes;
  return (
    <like.Form action={`/examples/guestbook/${id}/like`} className="like">
      <span className="likes" aria-label={`${shown} likes`}>
        {shown}
      </span>{" "}
      <button type="submit">Like</button>
    </like.Form>
  );
}

export function Guestbook() {
  const { entries } = useLoaderData<typeof guestbookLoader>();
  return (
    <ExampleFrame title="Guestbook">
      <p>
        A form with an action: it works with JavaScript off (a 303 after a good post, 422 with the errors and your text
        kept after a bad one) and, with it on, without a document load. The entries live in the store (SQLite, or
        PostgreSQL with
        <code>DATABASE_URL</code>); <code>/api/guestbook</code> reads and writes the same ones as JSON, and{" "}
        <a href="/examples/guestbook.rss">/examples/guestbook.rss</a> is their RSS feed. Each Like button posts to a
        route without a page.
      </p>
      <SignForm />
      <h2>
        Entries{" "}
        <Link href="/examples/guestbook" className="refresh">
          (check for new ones)
        </Link>
      </h2>
      {entries.length === 0 ? <p className="empty">No entries yet.</p> : null}
      <ol className="entries">
        {entries.map((e) => (
          <li key={e.id}>
            <Link href={`/examples/guestbook/${e.id}`}>{e.name}</Link>: {e.message}
            <Likes id={e.id} likes={e.likes} />
          </li>
        ))}
      </ol>
    </ExampleFrame>
  );
}

export function GuestbookEntry() {
  const entry = useLoaderData<typeof entryLoader>();
  return (
    <ExampleFrame title={`Entry ${entry.id}`}>
      <p className="entry-name">{entry.name}</p>
      <p className="entry-message">{entry.message}</p>
      <p>
        Written <time dateTime={entry.createdAt}>{entry.createdAt}</time>.{" "}
        <Link href="/examples/guestbook">Back to the guestbook</Link>
      </p>
    </ExampleFrame>
  );
}
