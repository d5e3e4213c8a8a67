// index.ts: `brisk/server`, what an app's server side uses: its lifecycle and the configuration and log it is
// handed, the cookies of an API route's request (the same signed cookies as loaders and actions), and
// sessions, in their cookie or in the app's store.
// Pages import `brisk`; only `*.server.ts` modules import this.

export type { AppServer, Config, Logger, LogRecord, Mode } from "../runtime/app-server.ts";
export type { CookieOptions, Cookies } from "../runtime/cookies.ts";
export { requestCookies } from "./sessions/request-cookies.ts";
export { allowCrossSite } from "./http/api-cross-site.ts";
export { getSession, requireUser, SessionTooLargeError } from "../runtime/cookie-session.ts";
export type { Session, SessionOptions, SessionValues, UserOf } from "../runtime/session.ts";
export { createSessionStorage, type SessionStorage, type SessionStorageOptions, type SessionStore } from "../runtime/store-session.ts";
export { apiMiddleware } from "./http/api-middleware.ts";
