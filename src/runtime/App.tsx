// App.tsx: the root both sides render: the app, the navigation store, wouter's router, the app's document.
import { useEffect } from "react";
import { preloadModule, type PreloadModuleOptions } from "react-dom";
import { Router } from "wouter";
import { AppContext, appRuntime, type AppRuntime } from "./app-context.ts";
import { parsePattern } from "./route-tree.ts";
import { useBriskLocation, useBriskSearch } from "./navigation.ts";

/** The runtime's parts; App adds the compiled routes. */
export type AppProps = Omit<AppRuntime, "tree">;

function preloadAll(modules: readonly string[], nonce: string | undefined) {
  // React's own options type lacks fetchPriority, which it passes on (as for its bootstrap modules' preloads).
  const options = { as: "script", nonce, fetchPriority: "low" } as PreloadModuleOptions;
  for (const href of modules) preloadModule(href, options);
}

export function App(props: AppProps) {
  // Tests and styles can tell a hydrated page from server HTML.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const { navigation, preloads } = props;
  // Here, not in a component around the app: a root of two children would be a fork in React's tree, and useId's
  // ids would differ from the browser's, whose root is the app alone; a wrapper would be one more component.
  if (preloads) preloadAll(preloads, navigation.nonce);
  const fixed = navigation.fixedLocation;
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
