// app.ts: the example app, as Brisk takes it: routes, outcome pages, document, stylesheet, API and
// its server side (the store).
// package.json's "imports" points `#app` here; the server, the client entry and the build start from it.
import { defineApp } from "brisk";
import { api } from "./api.server.ts";
import { Document } from "./Document.tsx";
import { Forbidden } from "./fallbacks/Forbidden.tsx";
import { GlobalError } from "./fallbacks/GlobalError.tsx";
import { NotFound } from "./fallbacks/NotFound.tsx";
import { RouteLoadFailed } from "./fallbacks/RouteLoadFailed.tsx";
import { Unauthorized } from "./fallbacks/Unauthorized.tsx";
import { routes } from "./routes.tsx";
import { server } from "./lifecycle.server.ts";

export default defineApp({
  routes,
  // Replace a component here to change that page app-wide.
  fallbacks: {
    "not-found": NotFound,
    forbidden: Forbidden,
    unauthorized: Unauthorized,
    error: GlobalError,
    "load-failed": RouteLoadFailed,
  },
  Document,
  styles: ["styles.css"],
  api,
  server,
});
