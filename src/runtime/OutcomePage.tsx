// OutcomePage.tsx: the fallback for a not-found, forbidden or unauthorized outcome, never indexed: a route's
// own when given, else the app's.
import type { ComponentType } from "react";
import { useAppRuntime } from "./app-context.ts";
import type { OutcomeKind } from "./outcome.ts";

export function OutcomePage({ kind, fallback }: { kind: Exclude<OutcomeKind, "redirect">; fallback?: ComponentType }) {
  const appFallback = useAppRuntime().app.fallbacks[kind];
  const Fallback = fallback ?? appFallback;
  return (
    <>
      <meta name="robots" content="noindex" />
      <Fallback />
    </>
  );
}
