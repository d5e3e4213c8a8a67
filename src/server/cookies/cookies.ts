// cookies.ts: one request's cookies as loaders and actions see them (the `Cookies` of runtime/cookies.ts): read,
// set, delete and sign, then the Set-Cookie headers, over a Bun.CookieMap of the request's Cookie header.
// Sessions get more of the jar than the app does (session-jar.ts): values signed for a purpose, the request's
// `method` (GET unless given), since a HEAD reads no flash value, and the Secure default their cookie's name
// follows.
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

/** One set or delete, as the jar made it: replayed on a jar made again (cookiesAsNow). */
type Change = (jar: Bun.CookieMap) => void;

/** For each jar, what makes it again with the changes made so far. */
const remakes = new WeakMap<Cookies, () => () => Cookies>();

/**
 * A function that makes the jar again as it is now: the request's cookies with the changes made so far and none
 * made after. A middleware that throws after next() throws away the response made inside it, and the cookies
 * set there with it.
 */
export function cookiesAsNow(cookies: Cookies): () => Cookies {
  const remake = remakes.get(cookies);
  if (!remake) throw new TypeError("cookies: not a jar createCookies made");
  return remake();
}

export function createCookies(cookieHeader: string | null, options: CookieSettings, method = "GET"): Cookies {
  return jarWith(cookieHeader, options, method, []);
}

function jarWith(cookieHeader: string | null, options: CookieSettings, method: string, earlier: readonly Change[]): Cookies {
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
  const set = (name: string, value: string, extra: CookieOptions = {}) => change((to) => to.set(name, value, { ...defaults, ...extra }));
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
      change((to) => to.delete({ name, path: extra.path ?? defaults.path, domain: extra.domain }));
    },
    setCookieHeaders: () => jar.toSetCookieHeaders(),
  };
  attachSessionJar(cookies, { method, secure: options.secure, getSigned, setSigned });
  remakes.set(cookies, () => {
    const kept = [...changes];
    return () => jarWith(cookieHeader, options, method, kept);
  });
  return cookies;
}
