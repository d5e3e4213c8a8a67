// index.ts: `brisk/server`, what an app's server side uses and its pages must not: its lifecycle and what it is
// handed, sessions (in their cookie or in the app's store, a SQL one ready-made), and what API routes use (their
// cookies, the routes' middleware, a cross-site opt-out), and the render cache's invalidation. Nothing here repeats
// `brisk`; only `*.server.ts` modules import this.

export type { AppConfig, AppServer, Logger, LogRecord, Mode } from "../runtime/app-server.ts";
export { requestCookies } from "./api/request-cookies.ts";
export { allowCrossSite } from "./api/api-cross-site.ts";
export { getSession, requireUser } from "./sessions/cookie-session.ts";
export { SessionTooLargeError } from "./sessions/session-cookie.ts";
export type { Session, SessionOptions, SessionValues, UserOf } from "./sessions/session.ts";
export {
  createSessionStorage,
  type SessionStorage,
  type SessionStorageOptions,
  type SessionStore,
} from "./sessions/store-session.ts";
export { sqlSessionStore, type SqlSessionStore, type SqlSessionStoreOptions } from "./sessions/sql-session-store.ts";
export { apiMiddleware } from "./api/api-middleware.ts";
export { revalidatePath, revalidateTag } from "./cache/revalidate.ts";
