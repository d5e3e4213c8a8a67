// Page.tsx: what the body shows for the current page: its route, an outcome page, or the error page.
import { Route, Switch } from "wouter";
import { GlobalError } from "./fallbacks/GlobalError.tsx";
import { OutcomePage } from "./fallbacks/OutcomePage.tsx";
import { RouteLoadFailed } from "./fallbacks/RouteLoadFailed.tsx";
import { routes } from "./routes.tsx";
import { LoaderDataContext } from "./runtime/loader-data.tsx";
import { useNavigation, useNavState } from "./runtime/navigation.ts";

const routeElements = routes.map((r) => <Route key={r.path} path={r.path} component={r.component} />);

export function Page() {
  const nav = useNavigation();
  const { page, loadFailed } = useNavState();
  const { error, outcome } = page.payload;
  if (loadFailed) return <RouteLoadFailed />;
  if (error) return <GlobalError {...error} host={nav.host} />;
  if (outcome && outcome.kind !== "redirect") return <OutcomePage kind={outcome.kind} />;
  return (
    <LoaderDataContext value={page.data}>
      <Switch>
        {routeElements}
        <Route>
          <OutcomePage kind="not-found" />
        </Route>
      </Switch>
    </LoaderDataContext>
  );
}
