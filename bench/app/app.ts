// app.ts: the bench's own app, written against `brisk` and `brisk/server` like any app: exactly the pages the
// bench measures (bench/README.md), so replacing the example app changes no figure here.
// The bench servers import it, and the client build and the binary take it as their app module (BENCH_APP).
import { defineApp } from "brisk";
import { api } from "./api.server.ts";
import { Document } from "./Document.tsx";
import { ErrorPage, Forbidden, LoadFailed, NotFound, Unauthorized } from "./fallbacks.tsx";
import { routes } from "./routes.ts";
import { server } from "./server.server.ts";

export default defineApp({
  routes,
  fallbacks: {
    "not-found": NotFound,
    forbidden: Forbidden,
    unauthorized: Unauthorized,
    error: ErrorPage,
    "load-failed": LoadFailed,
  },
  Document,
  styles: ["styles.css"],
  api,
  server,
});
