// session.ts: the visitor's session, JSON in one signed cookie, for loaders and actions (`ctx.cookies`) and API
// routes (`requestCookies(request)`) alike: values, flash values read once, and the guard for a signed-in visitor.
import type { CookieOptions, Cookies } from "./cookies.ts";
import { unauthorized } from "./outcome.ts";

/** What a session holds, by key. Values go through JSON: a `Date` comes back as its string. */
export type SessionValues = Record<string, unknown>;

export interface SessionOptions extends CookieOptions {
  /** The cookie's name; `session` unless given. */
  readonly name?: string;
}

export interface Session<Values extends SessionValues = SessionValues> {
  get<Key extends keyof Values & string>(key: Key): Values[Key] | undefined;
  /** Stores a value until it is unset or the session destroyed. Rejects, storing nothing, past the cookie's size. */
  set<Key extends keyof Values & string>(key: Key, value: Values[Key]): Promise<void>;
  unset(key: keyof Values & string): Promise<void>;
  /** Stores a value for `flashed` to read once, on a later request: "Saved!" shown after a redirect. */
  flash<Key extends keyof Values & string>(key: Key, value: Values[Key]): Promise<void>;
  /** The flash value, gone from the session once read; every reader in this request gets the same one. */
  flashed<Key extends keyof Values & string>(key: Key): Promise<Values[Key] | undefined>;
  /** Forgets everything: the cookie is deleted (sign-out). */
  destroy(): Promise<void>;
}

/**
 * Browsers keep a cookie of at most 4096 bytes, name and value together (RFC 6265 asks for no more); a longer
 * one is dropped without a word, which would sign the visitor out. Writing one is refused instead.
 */
export const MAX_COOKIE_BYTES = 4096;

/** base64url of an HMAC-SHA256 and its dot, which signing adds to the value. */
const SIGNATURE_BYTES = 44;

interface Stored {
  values: SessionValues;
  flash: SessionValues;
}

/** A request's sessions, by cookie name, on its one cookie jar: a layout's loader and a page's share them. */
const sessions = new WeakMap<Cookies, Map<string, Promise<Session>>>();

/**
 * This request's session in the cookie `name` (`session`), read and verified once per request: later calls
 * for the same cookie get the same session, written with the cookie options of the first.
 */
export function getSession<Values extends SessionValues = SessionValues>(cookies: Cookies, options: SessionOptions = {}): Promise<Session<Values>> {
  const name = options.name ?? "session";
  let byName = sessions.get(cookies);
  if (!byName) sessions.set(cookies, (byName = new Map()));
  let session = byName.get(name);
  if (!session) byName.set(name, (session = openSession(cookies, name, options)));
  return session as Promise<Session<Values>>;
}

/**
 * The signed-in visitor: the session's `user`, which signing in sets. Without one it throws `unauthorized()`,
 * the 401 page in a loader or an action (the nearest route's fallback) and 401 JSON in an API route.
 */
export async function requireUser<User>(cookies: Cookies, options?: SessionOptions): Promise<User> {
  const user = (await getSession<{ user: User }>(cookies, options)).get("user");
  if (user === undefined || user === null) unauthorized();
  return user;
}

async function openSession(cookies: Cookies, name: string, options: SessionOptions): Promise<Session> {
  const { name: _, ...cookieOptions } = options;
  let stored = decode(await cookies.getSigned(name));
  const read = new Map<string, unknown>();
  // Signing is asynchronous: writes go out in call order, so the cookie ends up with the last state (a write
  // that failed, say for want of a signer, has told its caller and holds back none after it).
  let writing = Promise.resolve();
  const queue = (next: () => void | Promise<void>) => (writing = writing.then(next, next));
  const write = (next: Stored) => {
    const value = encode(next);
    const bytes = new TextEncoder().encode(`${name}=${value}`).length + SIGNATURE_BYTES;
    if (bytes > MAX_COOKIE_BYTES) {
      return Promise.reject(
        new Error(`session: the ${name} cookie would be ${bytes} bytes, over the ${MAX_COOKIE_BYTES} browsers keep; store an id in the session and the data elsewhere`),
      );
    }
    stored = next;
    return queue(() => cookies.setSigned(name, value, cookieOptions));
  };
  const without = (bag: SessionValues, key: string) => Object.fromEntries(Object.entries(bag).filter(([k]) => k !== key));
  return {
    get: (key) => stored.values[key],
    set: (key, value) => write({ ...stored, values: { ...stored.values, [key]: value } }),
    unset: (key) => write({ ...stored, values: without(stored.values, key) }),
    flash: (key, value) => write({ ...stored, flash: { ...stored.flash, [key]: value } }),
    async flashed(key) {
      if (read.has(key)) return read.get(key);
      const value = stored.flash[key];
      read.set(key, value);
      if (value !== undefined) await write({ ...stored, flash: without(stored.flash, key) });
      return value;
    },
    destroy() {
      stored = { values: {}, flash: {} };
      read.clear();
      return queue(() => cookies.delete(name, cookieOptions));
    },
  };
}

function encode(stored: Stored): string {
  const binary = Array.from(new TextEncoder().encode(JSON.stringify(stored)), (byte) => String.fromCharCode(byte)).join("");
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The stored session, or an empty one for no cookie or one of another shape (the signature held, so it is ours). */
function decode(value: string | undefined): Stored {
  const empty = { values: {}, flash: {} };
  if (!value) return empty;
  try {
    const binary = atob(value.replaceAll("-", "+").replaceAll("_", "/"));
    const parsed: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    const { values, flash } = (parsed ?? {}) as Partial<Stored>;
    return isBag(values) && isBag(flash) ? { values, flash } : empty;
  } catch {
    return empty;
  }
}

function isBag(value: unknown): value is SessionValues {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
