// Session.tsx: the sign-in form, and a secret only a signed-in visitor may reveal.
import { Link } from "wouter";
import { Form, useActionData, useFetcher, useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { sessionAction, sessionLoader } from "./Session.server.ts";

/** Posts to the sign-in page's action from wherever it is shown (the account pages too). */
export function SignOut() {
  return (
    <Form action="/examples/session" className="sign-out">
      <input type="hidden" name="intent" value="sign-out" />
      <button type="submit">Sign out</button>
    </Form>
  );
}

/**
 * A fetcher's form to this page's action ("reveal"): with JavaScript the secret shows in place, or the sign-in
 * (401) page when signed out; without it the browser posts it and gets this page with the secret, or that 401.
 */
function RevealSecret({ revealed }: { revealed: string | undefined }) {
  const reveal = useFetcher<typeof sessionAction>();
  const secret = reveal.data && "secret" in reveal.data ? reveal.data.secret : revealed;
  return (
    <reveal.Form action="/examples/session" className="reveal">
      <input type="hidden" name="intent" value="reveal" />
      <button type="submit" disabled={reveal.state !== "idle"}>
        Reveal the secret
      </button>
      {secret ? <p id="secret">{secret}</p> : null}
    </reveal.Form>
  );
}

export function Session() {
  const { name, flash, next } = useLoaderData<typeof sessionLoader>();
  const answer = useActionData<typeof sessionAction>();
  const signIn = answer && "error" in answer ? answer : undefined;
  return (
    <ExampleFrame title="Session">
      {flash ? <p id="flash">{flash}</p> : null}
      <p>
        Signing in starts a session kept in the store, sets a signed, HttpOnly <code>session</code> cookie holding only
        its id, and answers 303 to <Link href="/examples/account">the account page</Link>, or to the page the account
        area sent you here from (<code>?next=</code>, a path on this site only). A cookie edited by hand reads as
        absent; signing out deletes the session, so a copy of the cookie is refused too.
      </p>
      {name ? (
        <>
          <p className="signed-in">
            Signed in as <strong>{name}</strong>.
          </p>
          <SignOut />
        </>
      ) : (
        <Form className="sign-in">
          {/* Where to go once signed in, through the post with or without JavaScript; the action checks it again. */}
          <input type="hidden" name="next" value={next} />
          <label>
            Your name
            <input name="name" required maxLength={80} defaultValue={signIn?.name} />
          </label>
          {signIn ? <p className="field-error">{signIn.error}</p> : null}
          <button type="submit">Sign in</button>
        </Form>
      )}
      <h2>A secret</h2>
      <p>
        A fetcher posts to this page&apos;s action without leaving it. Signed out, the action answers 401 and the
        sign-in page shows, as it would for a link.
      </p>
      <RevealSecret revealed={answer && "secret" in answer ? answer.secret : undefined} />
    </ExampleFrame>
  );
}
