// ErrorDetails.tsx: what an error page says of the failure: the digest to quote to support, and in development
// the message and stack. The app-wide error page and the nested example's error inside its layout share it.
import type { ErrorPageProps } from "brisk";

export function ErrorDetails({ digest, message, stack }: Pick<ErrorPageProps, "digest" | "message" | "stack">) {
  return (
    <>
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
    </>
  );
}
