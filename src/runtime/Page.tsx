// Page.tsx: what the body shows for the current page: its routes, an outcome page, or the error page.
import type { ReactNode } from "react";
import { Route } from "wouter";
import type { AppRuntime } from "./app-context.ts";
import type { NavState } from "./navigation.ts";
import { OutcomePage } from "./OutcomePage.tsx";
import { levelElement } from "./Outlet.tsx";

/**
 * The page's element, made by the component that reads the runtime and the state already (PageContent): a
 * component of its own would be one more on every page, with the same two reads.
 */
export function pageElement(runtime: AppRuntime, { page, loadFailed }: NavState): ReactNode {
  const { app, navigation } = runtime;
  const { error, outcome, boundary, route } = page.payload;
  const { error: ErrorPage, "load-failed": LoadFailed } = app.fallbacks;
  if (loadFailed) return <LoadFailed />;
  // A route's fallback shows it inside the levels above, else the app's page shows it instead of them.
  if (!boundary) {
    if (error) return <ErrorPage {...error} host={navigation.host} />;
    if (outcome && outcome.kind !== "redirect") return <OutcomePage kind={outcome.kind} />;
  }
  if (route === null) return <OutcomePage kind="not-found" />;
  // The server matched the routes and said which; wouter's Route is left to give useParams() the path's params.
  return <Route path={route}>{levelElement(runtime, page, 0)}</Route>;
}
