// App.tsx: the root both sides render: the app, the navigation store, wouter's router, the app's document.
import { useEffect } from "react";
import { Router } from "wouter";
import { AppContext, appRuntime, type AppRuntime } from "./app-context.ts";
import { parsePattern } from "./route-tree.ts";
import { useBriskLocation, useBriskSearch } from "./navigation.ts";

/** The runtime's parts; App adds the compiled routes. */
export type AppProps = Omit<AppRuntime, "tree">;

export function App(props: AppProps) {
  // Tests and styles can tell a hydrated page from server HTML.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const fixed = props.navigation.fixedLocation;
  const { Document } = props.app;
  return (
    <AppContext value={appRuntime(props)}>
      {/* A location that cannot move needs no store: wouter's own SSR props cost each Link two hooks less. */}
      {fixed ? (
        <Router ssrPath={fixed.path} ssrSearch={fixed.search} parser={parsePattern}>
          <Document />
        </Router>
      ) : (
        <Router hook={useBriskLocation} searchHook={useBriskSearch} parser={parsePattern}>
          <Document />
        </Router>
      )}
    </AppContext>
  );
}
