// GlobalError.tsx: the exception page, in its server-side and client-side forms.

import type { ErrorPageProps } from "brisk";
import { ErrorDetails } from "./ErrorDetails.tsx";

export function GlobalError({ side, host, ...details }: ErrorPageProps) {
  return (
    <main className="fallback global-error" role="alert">
      <title>Application error</title>
      <h1>Application error</h1>
      <p>
        A {side}-side exception has occurred while loading {host}
        {side === "client" ? " (see the browser console for more information)" : ""}.
      </p>
      <ErrorDetails {...details} />
      <p>
        <a href="">Reload the page</a>
      </p>
    </main>
  );
}
