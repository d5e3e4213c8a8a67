// routes.ts: the bench app's route table. `/` is prerendered; `/items` and `/session/items` are rendered for every
// request, as the reference (bench/reference-server.tsx) renders them, and `/section/items`, the items page two levels
// down (PER_REQUEST in bench/lib/results.ts). `/cached/items` is the same page kept in the render cache, and
// `/cached/guestbook` the guestbook's entries kept until a write revalidates their tag; `/shell/items` the same table
// in a partly prerendered page (bench/render-cache.ts).
import type { RouteDefinition } from "brisk";
import { guardedItemsLoader, signedIn } from "./pages/guard.server.ts";
import { GUESTBOOK_TAG } from "./guestbook/cache-tag.ts";
import { CachedGuestbook, Guestbook } from "./pages/Guestbook.tsx";
import { guestbookLoader, signGuestbook } from "./pages/guestbook.server.ts";
import { Home } from "./pages/Home.tsx";
import { homeLoader } from "./pages/home.server.ts";
import { Items, SessionItems, ShellItems } from "./pages/Items.tsx";
import { itemsLoader } from "./pages/items.server.ts";
import { LateSection, Never, RenderError } from "./pages/Outcomes.tsx";
import * as outcomes from "./pages/outcomes.server.ts";
import { Section } from "./pages/Section.tsx";
import { sectionLoader } from "./pages/section.server.ts";
import { sessionItemsLoader } from "./pages/session.server.ts";
import { shellItemsLoader } from "./pages/shell-items.server.ts";
import { Stream } from "./pages/Stream.tsx";
import { streamLoader } from "./pages/stream.server.ts";

export const routes: readonly RouteDefinition[] = [
  { path: "/", component: Home, loader: homeLoader, prerender: true },
  { path: "/items", component: Items, loader: itemsLoader },
  { path: "/session/items", component: SessionItems, loader: sessionItemsLoader },
  // The same check as /session/items, made by a guard middleware (bench/middleware-cost.ts).
  { path: "/guarded/items", component: SessionItems, loader: guardedItemsLoader, middleware: [signedIn] },
  // Two levels: a layout with its loader, the items page in its <Outlet /> (held against the reference's /items).
  {
    path: "/section",
    component: Section,
    loader: sectionLoader,
    children: [{ path: "items", component: Items, loader: itemsLoader }],
  },
  { path: "/cached/items", component: Items, loader: itemsLoader, cache: { maxAge: 3600 } },
  {
    path: "/cached/guestbook",
    component: CachedGuestbook,
    loader: guestbookLoader,
    cache: { maxAge: 3600, tags: [GUESTBOOK_TAG] },
  },
  { path: "/shell/items", component: ShellItems, loader: shellItemsLoader, shell: true },
  { path: "/stream", component: Stream, loader: streamLoader },
  { path: "/guestbook", component: Guestbook, loader: guestbookLoader, action: signGuestbook },
  { path: "/redirect", component: Never, loader: outcomes.redirectLoader },
  { path: "/not-found", component: Never, loader: outcomes.notFoundLoader },
  { path: "/forbidden", component: Never, loader: outcomes.forbiddenLoader },
  { path: "/unauthorized", component: Never, loader: outcomes.unauthorizedLoader },
  { path: "/server-error", component: Never, loader: outcomes.serverErrorLoader },
  { path: "/render-error", component: RenderError },
  { path: "/late-error", component: LateSection, loader: outcomes.lateErrorLoader },
  { path: "/late-not-found", component: LateSection, loader: outcomes.lateNotFoundLoader },
];
