// GlobalError.tsx: the exception page, in its server-side and client-side forms.

import type { ErrorPageProps } from "brisk";

export function GlobalError({ side, host, digest, message, stack }: ErrorPageProps) {
  return (
    <main className="fallback global-error" role="alert">
      <title>Application error</title>
      <h1>Application error</h1>
      <p>
        A {side}-side exception has occurred while loading {host}
        {side === "client" ? " (see the browser console for more information)" : ""}.
      </p>
      {digest ? (
        <p className="digest">
          Digest: <code>{digest}</code>
        </p>
      ) : null}
      {message ? (
        <section className="dev-error">
          <h2>{message}</h2>
          {stack ? <pre>{stack}</pre> : null}
        </section>
      ) : null}
      <p>
        <a href="">Reload the page</a>
      </p>
    </main>
  );
}
