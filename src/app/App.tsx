// App.tsx: the root both sides render: navigation store, wouter router, document.
import { Router } from "wouter";
import { Document, type DocumentProps } from "./Document.tsx";
import { NavigationContext, useBriskLocation, useBriskSearch, type Navigation } from "./runtime/navigation.ts";

export function App({ navigation, ...document }: DocumentProps & { navigation: Navigation }) {
  return (
    <NavigationContext value={navigation}>
      <Router hook={useBriskLocation} searchHook={useBriskSearch}>
        <Document {...document} />
      </Router>
    </NavigationContext>
  );
}
