// Page.tsx: what the body shows for the current page: its routes, an outcome page, or the error page.
import { Route } from "wouter";
import { useAppRuntime } from "./app-context.ts";
import { useNavigation, useNavState } from "./navigation.ts";
import { OutcomePage } from "./OutcomePage.tsx";
import { rootLevel } from "./Outlet.tsx";

export function Page() {
  const nav = useNavigation();
  const { app, tree } = useAppRuntime();
  const { page, loadFailed } = useNavState();
  const { error, outcome, boundary, route } = page.payload;
  const { error: ErrorPage, "load-failed": LoadFailed } = app.fallbacks;
  if (loadFailed) return <LoadFailed />;
  // A route's fallback shows it inside the levels above, else the app's page shows it instead of them.
  if (!boundary) {
    if (error) return <ErrorPage {...error} host={nav.host} />;
    if (outcome && outcome.kind !== "redirect") return <OutcomePage kind={outcome.kind} />;
  }
  if (route === null) return <OutcomePage kind="not-found" />;
  // The server matched the routes and said which; wouter's Route is left to give useParams() the path's params.
  return <Route path={route}>{rootLevel(page, tree)}</Route>;
}
