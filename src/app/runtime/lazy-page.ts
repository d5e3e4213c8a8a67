// lazy-page.ts: a code-split route component that can be loaded before it renders.
import { lazy, type ComponentType } from "react";

export type LazyPage = ComponentType & { preload(): Promise<unknown> };

/**
 * Wraps `() => import("./pages/X.tsx")`. The client preloads it before hydrating or committing a
 * navigation, so a route never suspends into a blank screen, and a failed load can be retried.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let pending: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (pending ??= load().catch((error: unknown) => {
      // Forget the failure so the next attempt fetches again.
      pending = undefined;
      throw error;
    }));
  return Object.assign(lazy(preload), { preload });
}

export function isLazyPage(component: unknown): component is LazyPage {
  return typeof (component as Partial<LazyPage> | null)?.preload === "function";
}
