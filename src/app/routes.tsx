// routes.tsx: the route table, the one place to add a page.
// Loaders and actions come from `*.server.ts` modules, which the browser build replaces with empty stand-ins.
import { Cached } from "./pages/Cached.tsx";
import { cachedLoader } from "./pages/Cached.server.ts";
import { ClientError } from "./pages/ClientError.tsx";
import { FilesReadme, FilesSplat } from "./pages/Files.tsx";
import { Guestbook, GuestbookEntry } from "./pages/Guestbook.tsx";
import { entryLoader, guestbookLoader, likeEntry, signGuestbook } from "./pages/Guestbook.server.ts";
import { guestbookFeedLoader } from "./pages/GuestbookFeed.server.ts";
import { Home } from "./pages/Home.tsx";
import { homeLoader } from "./pages/Home.server.ts";
import { Instant } from "./pages/Instant.tsx";
import { instantLoader } from "./pages/Instant.server.ts";
import { LateError, LateNotFound } from "./pages/LateExamples.tsx";
import { lateErrorLoader, lateNotFoundLoader } from "./pages/LateExamples.server.ts";
import { nestedRoute } from "./pages/Nested.tsx";
import { Popular } from "./pages/Popular.tsx";
import { popularLoader } from "./pages/Popular.server.ts";
import { NeverRendered } from "./pages/NeverRendered.tsx";
import { previewLoader } from "./pages/Preview.server.ts";
import {
  forbiddenLoader,
  notFoundLoader,
  redirectLoader,
  serverErrorLoader,
  unauthorizedLoader,
} from "./pages/outcome-loaders.server.ts";
import { Proto } from "./pages/Proto.tsx";
import { protoLoader } from "./pages/Proto.server.ts";
import { RenderError } from "./pages/RenderError.tsx";
import { searchRoute } from "./pages/SearchExample.route.ts";
import { AccountHome, AccountLayout, Notes } from "./pages/Account.tsx";
import { accountLoader, addNote, notesCsvLoader, notesLoader, signedIn } from "./pages/Account.server.ts";
import { Shell } from "./pages/Shell.tsx";
import { shellLoader } from "./pages/Shell.server.ts";
import { Session } from "./pages/Session.tsx";
import { sessionAction, sessionLoader } from "./pages/Session.server.ts";
import { StreamExample } from "./pages/StreamExample.tsx";
import { streamLoader } from "./pages/StreamExample.server.ts";
import { Types } from "./pages/Types.tsx";
import { typesLoader } from "./pages/Types.server.ts";
import { lazyPage, type RouteDefinition } from "brisk";

export const routes: readonly RouteDefinition[] = [
  // Prerendered: its loader reads nothing from the request; rendered once, each answer gets its own nonce.
  { path: "/", component: Home, loader: homeLoader, prerender: true },
  { path: "/examples/stream", component: StreamExample, loader: streamLoader },
  searchRoute,
  { path: "/examples/redirect", component: NeverRendered, loader: redirectLoader },
  { path: "/examples/not-found", component: NeverRendered, loader: notFoundLoader },
  { path: "/examples/forbidden", component: NeverRendered, loader: forbiddenLoader },
  { path: "/examples/unauthorized", component: NeverRendered, loader: unauthorizedLoader },
  { path: "/examples/server-error", component: NeverRendered, loader: serverErrorLoader },
  { path: "/examples/render-error", component: RenderError },
  { path: "/examples/late-error", component: LateError, loader: lateErrorLoader },
  { path: "/examples/late-not-found", component: LateNotFound, loader: lateNotFoundLoader },
  { path: "/examples/instant", component: Instant, loader: instantLoader },
  { path: "/examples/client-error", component: ClientError },
  {
    path: "/examples/lazy",
    component: lazyPage("pages/LazyExample.tsx", () => import("./pages/LazyExample.tsx")),
    prerender: true,
    styles: ["pages/LazyExample.css"],
  },
  { path: "/examples/guestbook", component: Guestbook, loader: guestbookLoader, action: signGuestbook },
  { path: "/examples/guestbook/:id", component: GuestbookEntry, loader: entryLoader },
  // Code-split: the typed API client it calls loads with it, off the other pages' critical path.
  {
    path: "/examples/api-client",
    component: lazyPage("pages/ApiClientExample.tsx", () => import("./pages/ApiClientExample.tsx")),
  },
  // Routes without a page: they answer with what the loader or action returns.
  { path: "/examples/guestbook.rss", loader: guestbookFeedLoader },
  { path: "/examples/guestbook/:id/like", action: likeEntry },
  { path: "/examples/preview", loader: previewLoader },
  { path: "/examples/session", component: Session, loader: sessionLoader, action: sessionAction },
  {
    // The guard is the layout's middleware: it holds for every request into the account area, whatever its kind.
    path: "/examples/account",
    id: "account",
    component: AccountLayout,
    middleware: [signedIn],
    loader: accountLoader,
    children: [
      { index: true, component: AccountHome },
      { path: "notes", component: Notes, loader: notesLoader, action: addNote },
      { path: "notes.csv", loader: notesCsvLoader },
    ],
  },
  { path: "/examples/cached", component: Cached, loader: cachedLoader },
  // Kept by the server for 60 s; the guestbook's writes drop it with revalidateTag("guestbook").
  {
    path: "/examples/popular",
    component: Popular,
    loader: popularLoader,
    cache: { maxAge: 60, tags: ["guestbook"] },
  },
  // A shell: prerendered once as the server starts; only the greeting, which reads the session, renders per request.
  { path: "/examples/shell", component: Shell, loader: shellLoader, shell: true },
  { path: "/examples/types", component: Types, loader: typesLoader },
  // Declared splat first: ranking, not order, gives /examples/files/readme its own route.
  { path: "/examples/files/*", component: FilesSplat },
  { path: "/examples/files/readme", component: FilesReadme },
  { path: "/examples/proto", component: Proto, loader: protoLoader },
  nestedRoute,
];
