// Session.tsx: the sign-in form, and the account page only a signed-in visitor sees.
import { Link } from "wouter";
import { Form, useActionData, useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { accountLoader, sessionAction, sessionLoader } from "./Session.server.ts";

function SignOut() {
  return (
    <Form className="sign-out">
      <input type="hidden" name="intent" value="sign-out" />
      <button type="submit">Sign out</button>
    </Form>
  );
}

export function Session() {
  const { name } = useLoaderData<typeof sessionLoader>();
  const answer = useActionData<typeof sessionAction>();
  return (
    <ExampleFrame title="Session">
      <p>
        Signing in sets a signed, HttpOnly <code>session</code> cookie and answers 303 to <Link href="/examples/account">the account page</Link>,
        which is 401 without it. A cookie edited by hand reads as absent.
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
          <label>
            Your name
            <input name="name" required maxLength={80} defaultValue={answer?.name} />
          </label>
          {answer?.error ? <p className="field-error">{answer.error}</p> : null}
          <button type="submit">Sign in</button>
        </Form>
      )}
    </ExampleFrame>
  );
}

export function Account() {
  const { name } = useLoaderData<typeof accountLoader>();
  return (
    <ExampleFrame title="Account">
      <p className="account-name">
        Signed in as <strong>{name}</strong>.
      </p>
      <Form action="/examples/session" className="sign-out">
        <input type="hidden" name="intent" value="sign-out" />
        <button type="submit">Sign out</button>
      </Form>
    </ExampleFrame>
  );
}
