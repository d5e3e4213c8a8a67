// entry-client.tsx: the browser entry: read the page the server rendered, load its route, hydrate.
import { hydrateRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import "./app/styles.css";
import { routes } from "./app/routes.tsx";
import { createBrowserNavigation } from "./app/runtime/browser-navigation.ts";
import { isLazyPage } from "./app/runtime/lazy-page.ts";
import type { BootState, PagePayload } from "./app/runtime/page.ts";
import { livePage } from "./app/runtime/page-view.ts";

declare global {
  interface Window {
    __BRISK__: BootState;
  }
}

const boot = window.__BRISK__;

async function prepare(payload: PagePayload): Promise<void> {
  const component = routes.find((r) => r.path === payload.route)?.component;
  if (isLazyPage(component)) await component.preload();
}

const initial = livePage(boot.page);
const navigation = createBrowserNavigation({ boot, initial, prepare });

// Streamed values that never arrived (the server gave up on them) must not leave Suspense waiting.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initial.end, { once: true });
else initial.end();

// A code-split route is loaded before hydration, so hydration never meets a suspended lazy component.
await prepare(boot.page);
hydrateRoot(document, <App navigation={navigation} settlements={initial.settlements} />);
