// App.tsx: the root both sides render: navigation store, wouter router, document.
import { useEffect } from "react";
import { Router } from "wouter";
import { Document, type DocumentProps } from "../../app/Document.tsx";
import { parsePattern } from "./match.ts";
import { NavigationContext, useBriskLocation, useBriskSearch, type Navigation } from "./navigation.ts";

export function App({ navigation, ...doc }: DocumentProps & { navigation: Navigation }) {
  // Tests and styles can tell a hydrated page from server HTML.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const fixed = navigation.fixedLocation;
  // A location that cannot move needs no store: wouter's own SSR props cost each Link two hooks less.
  const location = fixed ? { ssrPath: fixed.path, ssrSearch: fixed.search } : { hook: useBriskLocation, searchHook: useBriskSearch };
  return (
    <NavigationContext value={navigation}>
      <Router {...location} parser={parsePattern}>
        <Document {...doc} />
      </Router>
    </NavigationContext>
  );
}
