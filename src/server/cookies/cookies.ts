// cookies.ts: one request's cookies as loaders and actions see them (the `Cookies` of runtime/cookies.ts): read,
// set, delete and sign, then the Set-Cookie headers, over a Bun.CookieMap of the request's Cookie header.
// Each jar also carries the server's side of it, out of the app's sight: how to make it again (cookiesAsNow), and
// what sessions get of it (sessionAccessOf). Kept on the jar itself, so it lives and dies with the request's jar.
import type { CookieOptions, Cookies } from "../../runtime/cookies.ts";
import type { CookieSigner } from "./cookie-signer.ts";

export type { CookieOptions, Cookies } from "../../runtime/cookies.ts";

export interface CookieSettings {
  /** Add Secure by default: on in production, where the site is served over HTTPS. */
  readonly secure: boolean;
  /** Signs and verifies; without it getSigned and setSigned throw (the app's set-up is missing a piece). */
  readonly signer?: CookieSigner;
}

/** The attributes every cookie gets unless the call says otherwise. */
export function cookieDefaults(secure: boolean) {
  return { httpOnly: true, sameSite: "lax", path: "/", secure } as const;
}

/** What sessions (src/server/sessions/) get of a request's jar beyond the public `Cookies`. */
export interface SessionAccess {
  /** The request's method (GET unless given): a HEAD shows no page, so it reads no flash value. */
  readonly method: string;
  /** Whether cookies are Secure unless a call says otherwise: a session cookie's name depends on it. */
  readonly secure: boolean;
  /** A value signed for `purpose`, which never verifies as a `getSigned` value nor the other way round. */
  getSigned(name: string, purpose: string): Promise<string | undefined>;
  setSigned(name: string, value: string, purpose: string, options?: CookieOptions): Promise<void>;
  /**
   * The sessions opened on this jar, by cookie name, with what keeps each: a layout's loader and a page's share
   * them. A jar made again (cookiesAsNow) starts with none, so they are read again from the cookies it holds.
   */
  readonly opened: Map<string, { readonly kind: object; readonly session: Promise<unknown> }>;
}

interface ServerSide {
  readonly sessions: SessionAccess;
  /** A function that makes the jar again as it is now (cookiesAsNow). */
  remake(): () => Cookies;
}

const SERVER_SIDE = Symbol("brisk.jar");

function serverSideOf(cookies: Cookies): ServerSide | undefined {
  return (cookies as { readonly [SERVER_SIDE]?: ServerSide })[SERVER_SIDE];
}

/** One set or delete, as the jar made it: replayed on a jar made again (cookiesAsNow). */
type Change = (jar: Bun.CookieMap) => void;

/**
 * A function that makes the jar again as it is now: the request's cookies with the changes made so far and none
 * made after. A middleware that throws after next() throws away the response made inside it, and the cookies
 * set there with it.
 */
export function cookiesAsNow(cookies: Cookies): () => Cookies {
  const side = serverSideOf(cookies);
  if (!side) throw new TypeError("cookies: not a jar createCookies made");
  return side.remake();
}

/** What sessions get of a jar createCookies made; undefined for any other `Cookies`, a copy of one included. */
export function sessionAccessOf(cookies: Cookies): SessionAccess | undefined {
  return serverSideOf(cookies)?.sessions;
}

/**
 * `onRead`: called on every read of the visitor's cookies (a session's included) through this jar or one made
 * again from it: an answer that read them is the visitor's own (cache/answer-capture.ts).
 */
export function createCookies(
  cookieHeader: string | null,
  options: CookieSettings,
  method = "GET",
  onRead: () => void = () => {},
): Cookies {
  return jarWith(cookieHeader, options, method, [], onRead);
}

function jarWith(
  cookieHeader: string | null,
  options: CookieSettings,
  method: string,
  earlier: readonly Change[],
  onRead: () => void,
): Cookies {
  // Bun's parser takes any string: malformed pairs are skipped, bad percent-encoding reads as U+FFFD.
  const jar = new Bun.CookieMap(cookieHeader ?? "");
  const changes: Change[] = [];
  // Kept once made: a name Bun refuses throws, and is no change.
  const change = (made: Change) => {
    made(jar);
    changes.push(made);
  };
  earlier.forEach(change);
  const defaults = cookieDefaults(options.secure);
  const signer = () => {
    if (!options.signer) throw new Error("cookies: signed cookies need a signer (see cookie-secret.ts)");
    return options.signer;
  };
  const set = (name: string, value: string, extra: CookieOptions = {}) =>
    change((to) => to.set(name, value, { ...defaults, ...extra }));
  const getSigned = async (name: string, purpose?: string) => {
    onRead();
    const value = jar.get(name);
    return value === null ? undefined : signer().verify(value, name, purpose);
  };
  const setSigned = async (name: string, value: string, purpose?: string, extra?: CookieOptions) => {
    set(name, await signer().sign(value, name, purpose), extra);
  };
  const cookies: Cookies = {
    get: (name) => (onRead(), jar.get(name) ?? undefined),
    getSigned: (name) => getSigned(name),
    set,
    setSigned: (name, value, extra) => setSigned(name, value, undefined, extra),
    delete(name, extra = {}) {
      change((to) => to.delete({ name, path: extra.path ?? defaults.path, domain: extra.domain }));
    },
    setCookieHeaders: () => jar.toSetCookieHeaders(),
  };
  const side: ServerSide = {
    sessions: { method, secure: options.secure, getSigned, setSigned, opened: new Map() },
    remake() {
      const kept = [...changes];
      return () => jarWith(cookieHeader, options, method, kept, onRead);
    },
  };
  // Not enumerable: a copy of the jar (`{ ...cookies }`) is no request's jar.
  return Object.defineProperty(cookies, SERVER_SIDE, { value: side });
}
