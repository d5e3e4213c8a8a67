// App.tsx: the root both sides render: the app, the navigation store, wouter's router, the app's document.
import { useEffect } from "react";
import { Router } from "wouter";
import { AppContext, appRuntime, type AppRuntime } from "./app-context.ts";
import type { AppDefinition } from "./app-definition.ts";
import { parsePattern } from "./route-tree.ts";
import { NavigationContext, useBriskLocation, useBriskSearch, type Navigation } from "./navigation.ts";

export interface AppProps {
  app: AppDefinition;
  navigation: Navigation;
  settlements: AppRuntime["settlements"];
  inlineStyles?: AppRuntime["inlineStyles"];
  onLevel?: AppRuntime["onLevel"];
  scriptValue?: AppRuntime["scriptValue"];
}

export function App({ app, navigation, settlements, inlineStyles, onLevel, scriptValue }: AppProps) {
  // Tests and styles can tell a hydrated page from server HTML.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const fixed = navigation.fixedLocation;
  // A location that cannot move needs no store: wouter's own SSR props cost each Link two hooks less.
  const location = fixed ? { ssrPath: fixed.path, ssrSearch: fixed.search } : { hook: useBriskLocation, searchHook: useBriskSearch };
  const { Document } = app;
  return (
    <AppContext value={appRuntime(app, settlements, { inlineStyles, onLevel, scriptValue })}>
      <NavigationContext value={navigation}>
        <Router {...location} parser={parsePattern}>
          <Document />
        </Router>
      </NavigationContext>
    </AppContext>
  );
}
