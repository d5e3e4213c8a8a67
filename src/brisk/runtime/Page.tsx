// Page.tsx: what the body shows for the current page: its route, an outcome page, or the error page.
import { Route } from "wouter";
import { GlobalError } from "../../app/fallbacks/GlobalError.tsx";
import { OutcomePage } from "./OutcomePage.tsx";
import { RouteLoadFailed } from "../../app/fallbacks/RouteLoadFailed.tsx";
import { routes } from "../../app/routes.tsx";
import { LoaderDataContext } from "./loader-data.tsx";
import { useNavigation, useNavState } from "./navigation.ts";

const routesByPath = new Map(routes.map((r) => [r.path, r]));

export function Page() {
  const nav = useNavigation();
  const { page, loadFailed } = useNavState();
  const { error, outcome } = page.payload;
  if (loadFailed) return <RouteLoadFailed />;
  if (error) return <GlobalError {...error} host={nav.host} />;
  if (outcome && outcome.kind !== "redirect") return <OutcomePage kind={outcome.kind} />;
  // The server matched the route and said which; only wouter's Route is left to do, for useParams().
  const route = page.payload.route === null ? undefined : routesByPath.get(page.payload.route);
  if (!route) return <OutcomePage kind="not-found" />;
  return (
    <LoaderDataContext value={page.data}>
      <Route path={route.path} component={route.component} />
    </LoaderDataContext>
  );
}
