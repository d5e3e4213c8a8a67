// Page.tsx: what the body shows for the current page: its route, an outcome page, or the error page.
import { Route } from "wouter";
import { useAppRuntime } from "./app-context.ts";
import { LoaderDataContext } from "./loader-data.tsx";
import { useNavigation, useNavState } from "./navigation.ts";
import { OutcomePage } from "./OutcomePage.tsx";

export function Page() {
  const nav = useNavigation();
  const { app, routeFor } = useAppRuntime();
  const { page, loadFailed } = useNavState();
  const { error, outcome } = page.payload;
  const { error: ErrorPage, "load-failed": LoadFailed } = app.fallbacks;
  if (loadFailed) return <LoadFailed />;
  if (error) return <ErrorPage {...error} host={nav.host} />;
  if (outcome && outcome.kind !== "redirect") return <OutcomePage kind={outcome.kind} />;
  // The server matched the route and said which; only wouter's Route is left to do, for useParams().
  const route = routeFor(page.payload.route);
  if (!route) return <OutcomePage kind="not-found" />;
  return (
    <LoaderDataContext value={page.data}>
      <Route path={route.path} component={route.component} />
    </LoaderDataContext>
  );
}
