// OutcomePage.tsx: the fallback for a not-found, forbidden or unauthorized outcome.
import { fallbacks } from "../../app/routes.tsx";
import type { OutcomeKind } from "./outcome.ts";

export function OutcomePage({ kind }: { kind: Exclude<OutcomeKind, "redirect"> }) {
  const Fallback = fallbacks[kind];
  return (
    <>
      <meta name="robots" content="noindex" />
      <Fallback />
    </>
  );
}
