// session.ts: the one Session a request's loaders, actions and API routes share, over a backend that keeps it
// between requests: the whole session in its cookie (cookie-session.ts) or in the app's store under an id the
// cookie holds (createSessionStorage; flash values alone stay in the cookie). Values, flash values read once,
// sign-in's renew, sign-out's destroy, and the age past which a session is no session, checked here whatever
// the browser kept.
import type { CookieOptions, Cookies } from "../../runtime/cookies.ts";
import { unauthorized } from "../../runtime/outcome.ts";
import { sessionAccessOf, type SessionAccess } from "../cookies/cookies.ts";

/** What a session holds, by key. Values go through JSON: a `Date` comes back as its string. */
export type SessionValues = Record<string, unknown>;

export interface SessionOptions extends Omit<CookieOptions, "maxAge" | "expires"> {
  /**
   * The cookie's name; `session` unless given. A Secure cookie with Path=/ and no Domain goes out as
   * `__Host-<name>` (a sibling subdomain cannot set it); one under the plain name is still read while the
   * prefixed one is absent, and moved by the next write.
   */
  readonly name?: string;
  /**
   * Seconds a session lives from when it was issued (the first write, or `renew()` at sign-in), checked on the
   * server: past it the session reads as empty whatever the browser kept. 14 days unless given. Writes keep the
   * issue time; the cookie's Max-Age is the time left.
   */
  readonly maxAge?: number;
}

export interface Session<Values extends SessionValues = SessionValues, Flash extends SessionValues = Values> {
  get<Key extends keyof Values & string>(key: Key): Values[Key] | undefined;
  /** Stores a value until it is unset or the session ends. Rejects, storing nothing, when it cannot be kept. */
  set<Key extends keyof Values & string>(key: Key, value: Values[Key]): Promise<void>;
  unset(key: keyof Values & string): Promise<void>;
  /** Stores a value for `flashed` to read once, on a later request: "Saved!" shown after a redirect. */
  flash<Key extends keyof Flash & string>(key: Key, value: Flash[Key]): Promise<void>;
  /**
   * The flash value, gone from the session once read; every reader in this request gets the same one. A HEAD
   * request sees it but leaves it for the GET.
   */
  flashed<Key extends keyof Flash & string>(key: Key): Promise<Flash[Key] | undefined>;
  /** Ends the session (sign-out): the cookie is deleted, a stored record too. A write after it starts a new one. */
  destroy(): Promise<void>;
  /**
   * Starts a fresh session in place of this one (sign-in): values and flash values set before are dropped, the
   * issue time is now, a stored session gets a new id and its old record is deleted. What is set after it in
   * the same request is kept. Nothing a visitor planted before signing in survives it.
   */
  renew(): Promise<void>;
}

/** The type of a session's `user`, which `requireUser` gives back. */
export type UserOf<Values extends SessionValues> = NonNullable<Values["user"]>;

/** A session as kept between requests. */
export interface SessionState {
  readonly values: SessionValues;
  readonly flash: SessionValues;
  /** When it was issued, in ms since the epoch (Date.now(), so a test can set the clock). */
  readonly issuedAt: number;
}

/** Where a session is kept between requests; `Payload` is the form it keeps it in. */
export interface SessionBackend<Payload> {
  /** The session the request came with, its signature checked: undefined when absent, forged or malformed. */
  read(): Promise<SessionState | undefined>;
  /** The state as it is kept. Throws (SessionTooLargeError) for one that cannot be; it runs before the session changes. */
  encode(state: SessionState): Payload;
  /** Keeps a payload, the session's new state; it ends at `expires`, in ms. */
  write(payload: Payload, expires: number): Promise<void>;
  /** Ends the kept session. */
  end(): Promise<void>;
}

const DEFAULT_SESSION_MAX_AGE = 14 * 24 * 60 * 60;

/** The option checked once: a session that never expires, or already has, is the app's mistake. */
export function sessionMaxAge(maxAge = DEFAULT_SESSION_MAX_AGE): number {
  if (!(Number.isFinite(maxAge) && maxAge > 0))
    throw new TypeError(`session: maxAge must be a positive number of seconds, not ${maxAge}`);
  return maxAge;
}

/** A cookie's Max-Age for a session that ends at `expires`: whole seconds left, never more. */
export function secondsUntil(expires: number): number {
  return Math.max(0, Math.floor((expires - Date.now()) / 1000));
}

const EMPTY = { values: {}, flash: {} } as const;

/** The session in stored JSON, or undefined for anything else (the signature held: another shape is an old version's). */
export function parseSessionState(json: string | undefined): SessionState | undefined {
  if (json === undefined) return undefined;
  try {
    const { values, flash, issuedAt } = (JSON.parse(json) ?? {}) as Partial<SessionState>;
    return isBag(values) && isBag(flash) && Number.isFinite(issuedAt)
      ? { values, flash, issuedAt: issuedAt! }
      : undefined;
  } catch {
    return undefined;
  }
}

function isBag(value: unknown): value is SessionValues {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The session of this request in the cookie `name`, opened once on the request's jar over the backend `keep`
 * makes for it, and refused past `maxAge` seconds (14 days unless given): later calls get the same session. `kind`
 * is what keeps it (the cookie, or a storage); a second kind asking for the same cookie is the app's mistake.
 */
export function requestSession<Values extends SessionValues, Flash extends SessionValues, Payload>(
  cookies: Cookies,
  { name, kind, maxAge }: { name: string; kind: object; maxAge: number | undefined },
  keep: (access: SessionAccess) => SessionBackend<Payload>,
): Promise<Session<Values, Flash>> {
  const access = sessionAccessOf(cookies);
  if (!access)
    return Promise.reject(
      new TypeError(
        "session: these cookies are not a request's (a loader's or an action's ctx.cookies, or requestCookies(request))",
      ),
    );
  let held = access.opened.get(name);
  if (!held) {
    // A throw while opening (a maxAge that is no lifetime, a store that is down) rejects, as the rest does.
    const session = new Promise<Session>((resolve) =>
      resolve(openSession(keep(access), sessionMaxAge(maxAge), access.method)),
    );
    access.opened.set(name, (held = { kind, session }));
  } else if (held.kind !== kind) {
    return Promise.reject(
      new TypeError(`session: the ${name} cookie already holds another kind of session in this request`),
    );
  }
  return held.session as Promise<Session<Values, Flash>>;
}

/** The signed-in visitor, the session's `user` as read; without one, `unauthorized()` (401 page or 401 JSON). */
export function signedInUser<User>(user: User | undefined): NonNullable<User> {
  if (user === undefined || user === null) unauthorized();
  return user;
}

/** The session the backend holds, refused past `maxAge` seconds from its issue; `method` HEAD leaves flash values. */
async function openSession<Payload>(
  backend: SessionBackend<Payload>,
  maxAge: number,
  method: string,
): Promise<Session> {
  const lifetime = maxAge * 1000;
  const found = await backend.read();
  // Undefined: no session is kept yet, and the next write starts one.
  let state = found && Date.now() - found.issuedAt < lifetime ? found : undefined;
  const read = new Map<string, unknown>();
  // Writes go out in call order, so what is kept ends up the last state (a write that failed has told its
  // caller and holds back none after it).
  let writing = Promise.resolve();
  const queue = (next: () => Promise<void>) => (writing = writing.then(next, next));
  const write = (
    change: (current: Pick<SessionState, "values" | "flash">) => Pick<SessionState, "values" | "flash">,
  ) => {
    const next = { ...change(state ?? EMPTY), issuedAt: state?.issuedAt ?? Date.now() };
    let payload: Payload;
    try {
      payload = backend.encode(next);
    } catch (error) {
      return Promise.reject(error);
    }
    state = next;
    return queue(() => backend.write(payload, next.issuedAt + lifetime));
  };
  const without = (bag: SessionValues, key: string) =>
    Object.fromEntries(Object.entries(bag).filter(([k]) => k !== key));
  const destroy = () => {
    state = undefined;
    read.clear();
    return queue(() => backend.end());
  };
  return {
    get: (key) => state?.values[key],
    set: (key, value) => write((s) => ({ ...s, values: { ...s.values, [key]: value } })),
    unset: (key) => write((s) => ({ ...s, values: without(s.values, key) })),
    flash: (key, value) => write((s) => ({ ...s, flash: { ...s.flash, [key]: value } })),
    async flashed(key) {
      if (read.has(key)) return read.get(key);
      const value = state?.flash[key];
      read.set(key, value);
      if (value !== undefined && method !== "HEAD") await write((s) => ({ ...s, flash: without(s.flash, key) }));
      return value;
    },
    destroy,
    async renew() {
      await Promise.all([destroy(), write(() => EMPTY)]);
    },
  };
}
