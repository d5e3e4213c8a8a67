// fallbacks.tsx: the pages shown instead of a route. The not-found page is the bench's 404, which the
// reference renders too.
import type { ReactNode } from "react";
import { Link, type ErrorPageProps } from "brisk";

function Fallback({ code, title, children }: { code: string; title: string; children: ReactNode }) {
  return (
    <main>
      <title>{title}</title>
      <h1>
        <span className="code">{code}</span> {title}
      </h1>
      {children}
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </main>
  );
}

export const NotFound = () => (
  <Fallback code="404" title="Page not found">
    <p>There is no page at this address. It may have moved, or the link may be wrong.</p>
  </Fallback>
);

export const Forbidden = () => (
  <Fallback code="403" title="Forbidden">
    <p>This page is not yours to see.</p>
  </Fallback>
);

export const Unauthorized = () => (
  <Fallback code="401" title="Sign-in required">
    <p>You need to sign in to see this page.</p>
  </Fallback>
);

/** The exception page: bench/soak-outage.ts reads the digest from its `Digest: <code>…</code>`. */
export function ErrorPage({ side, host, digest }: ErrorPageProps) {
  return (
    <main role="alert">
      <title>Application error</title>
      <h1>Application error</h1>
      <p>
        A {side}-side exception has occurred while loading {host}.
      </p>
      {digest ? (
        <p className="digest">
          Digest: <code>{digest}</code>
        </p>
      ) : null}
    </main>
  );
}

export const LoadFailed = () => (
  <main role="alert">
    <title>Page could not be loaded</title>
    <h1>This page could not be loaded</h1>
    <p>
      <button type="button" onClick={() => location.reload()}>
        Reload the page
      </button>
    </p>
  </main>
);
