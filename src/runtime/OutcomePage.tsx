// OutcomePage.tsx: the fallback for a not-found, forbidden, unauthorized or bad-request outcome, never indexed:
// a route's own when given, else the app's (Brisk's plain page for a bad request the app has no page for).
import type { ComponentType } from "react";
import { useAppRuntime } from "./app-context.ts";
import type { BadRequestPageProps } from "./fallback-pages.ts";
import { useNavState } from "./navigation.ts";
import type { OutcomeKind } from "./outcome.ts";

function BadRequest({ message }: BadRequestPageProps) {
  return (
    <main>
      <h1>Bad request</h1>
      <p>{message}</p>
    </main>
  );
}

export function OutcomePage({
  kind,
  fallback,
}: {
  kind: Exclude<OutcomeKind, "redirect">;
  fallback?: ComponentType | ComponentType<BadRequestPageProps>;
}) {
  const appFallback = useAppRuntime().app.fallbacks[kind];
  const Fallback = fallback ?? appFallback ?? BadRequest;
  // Only a bad request has a message (the page's, from the server); the other pages take no props and ignore it.
  const message = useNavState().page.payload.outcome?.message ?? "";
  return (
    <>
      <meta name="robots" content="noindex" />
      <Fallback message={message} />
    </>
  );
}
