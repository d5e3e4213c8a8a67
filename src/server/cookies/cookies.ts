// cookies.ts: one request's cookies as loaders and actions see them: read, set, delete and sign, then the Set-Cookie headers.
//
// createCookies(cookieHeader, { secure, signer }, method) wraps a Bun.CookieMap of the request's Cookie header.
//   get(name)                    the value, or undefined; a header of any shape reads without throwing
//                                (a value that is not valid percent-encoding reads with U+FFFD).
//   getSigned(name)              the value when its signature verifies with one of the secrets, else
//                                undefined: a tampered, unsigned or foreign cookie reads as absent.
//   set / setSigned(name, value, options)
//                                with the defaults HttpOnly, SameSite=Lax, Path=/ and Secure when
//                                `secure` (production); options override them one by one.
//   delete(name, options)        an expired cookie; path and domain must match the ones it was set with.
//   setCookieHeaders()           one Set-Cookie value per name changed, for the document and page-data
//                                responses alike.
// A cookie set or deleted during the request reads back as set (a page rendered after its action sees the
// new value). An invalid cookie name throws a TypeError: it is the app's bug, never a visitor's input.
// Sessions get more of the jar than the app does (session-jar.ts): values signed for a purpose, and the
// request's `method` (GET unless given), since a HEAD reads no flash value.
import type { CookieOptions, Cookies } from "../../runtime/cookies.ts";
import { attachSessionJar, type SignaturePurpose } from "../../runtime/session-jar.ts";
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

export function createCookies(cookieHeader: string | null, options: CookieSettings, method = "GET"): Cookies {
  // Bun's parser takes any string: malformed pairs are skipped, bad percent-encoding reads as U+FFFD.
  const jar = new Bun.CookieMap(cookieHeader ?? "");
  const defaults = cookieDefaults(options.secure);
  const signer = () => {
    if (!options.signer) throw new Error("cookies: signed cookies need a signer (see cookie-secret.ts)");
    return options.signer;
  };
  const set = (name: string, value: string, extra: CookieOptions = {}) => jar.set(name, value, { ...defaults, ...extra });
  const getSigned = async (name: string, purpose?: SignaturePurpose) => {
    const value = jar.get(name);
    return value === null ? undefined : signer().verify(value, name, purpose);
  };
  const setSigned = async (name: string, value: string, purpose?: SignaturePurpose, extra?: CookieOptions) => {
    set(name, await signer().sign(value, name, purpose), extra);
  };
  const cookies: Cookies = {
    get: (name) => jar.get(name) ?? undefined,
    getSigned: (name) => getSigned(name),
    set,
    setSigned: (name, value, extra) => setSigned(name, value, undefined, extra),
    delete(name, extra = {}) {
      jar.delete({ name, path: extra.path ?? defaults.path, domain: extra.domain });
    },
    setCookieHeaders: () => jar.toSetCookieHeaders(),
  };
  attachSessionJar(cookies, { method, getSigned, setSigned });
  return cookies;
}
