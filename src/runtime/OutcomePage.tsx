// OutcomePage.tsx: the app's fallback for a not-found, forbidden or unauthorized outcome, never indexed.
import { useAppRuntime } from "./app-context.ts";
import type { OutcomeKind } from "./outcome.ts";

export function OutcomePage({ kind }: { kind: Exclude<OutcomeKind, "redirect"> }) {
  const Fallback = useAppRuntime().app.fallbacks[kind];
  return (
    <>
      <meta name="robots" content="noindex" />
      <Fallback />
    </>
  );
}
