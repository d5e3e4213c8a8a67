// routes.tsx: the route table, the one place to add a page, and the outcome pages the app shows.
import { Forbidden } from "./fallbacks/Forbidden.tsx";
import { NotFound } from "./fallbacks/NotFound.tsx";
import { Unauthorized } from "./fallbacks/Unauthorized.tsx";
import { ClientError } from "./pages/ClientError.tsx";
import { Home, homeLoader } from "./pages/Home.tsx";
import { LateError, LateNotFound, lateErrorLoader, lateNotFoundLoader } from "./pages/LateExamples.tsx";
import {
  NeverRendered,
  forbiddenLoader,
  notFoundLoader,
  redirectLoader,
  serverErrorLoader,
  unauthorizedLoader,
} from "./pages/outcome-loaders.ts";
import { RenderError } from "./pages/RenderError.tsx";
import { SearchExample, searchLoader } from "./pages/SearchExample.tsx";
import { StreamExample, streamLoader } from "./pages/StreamExample.tsx";
import { lazyPage } from "./runtime/lazy-page.ts";
import type { RouteDefinition } from "./runtime/route.ts";

export const routes: readonly RouteDefinition[] = [
  { path: "/", component: Home, loader: homeLoader },
  { path: "/examples/stream", component: StreamExample, loader: streamLoader },
  { path: "/examples/search", component: SearchExample, loader: searchLoader },
  { path: "/examples/redirect", component: NeverRendered, loader: redirectLoader },
  { path: "/examples/not-found", component: NeverRendered, loader: notFoundLoader },
  { path: "/examples/forbidden", component: NeverRendered, loader: forbiddenLoader },
  { path: "/examples/unauthorized", component: NeverRendered, loader: unauthorizedLoader },
  { path: "/examples/server-error", component: NeverRendered, loader: serverErrorLoader },
  { path: "/examples/render-error", component: RenderError },
  { path: "/examples/late-error", component: LateError, loader: lateErrorLoader },
  { path: "/examples/late-not-found", component: LateNotFound, loader: lateNotFoundLoader },
  { path: "/examples/client-error", component: ClientError },
  {
    path: "/examples/lazy",
    component: lazyPage(() => import("./pages/LazyExample.tsx")),
    styles: ["pages/LazyExample.css"],
  },
];

/** The pages shown for each outcome; replace a component here to restyle it app-wide. */
export const fallbacks = {
  "not-found": NotFound,
  forbidden: Forbidden,
  unauthorized: Unauthorized,
} as const;
