// store-session.ts: sessions kept in the app's own store, the cookie holding only a random id signed for that
// purpose. The same Session as a cookie-kept one (session.ts); what differs is where it lives, so destroy()
// ends it on the server: a copy of the cookie taken before is refused afterwards, on every replica. A session
// costs the store nothing until it holds a value: flash values alone (the notice after a sign-out) stay in the
// cookie, signed for that purpose, so no anonymous post makes a record.
//
//   const sessions = createSessionStorage<{ user: { name: string } }>({ store });   // once, at module level
//   const session = await sessions.getSession(ctx.cookies);                         // in a loader or action
//   const user = await sessions.requireUser(requestCookies(request));               // 401 without one
//
// `store` is the app's, over its database (see SessionStore). A session's data goes to it as JSON text; the
// age is checked here on every read (maxAge, 14 days unless given, from the issue), so a record the store
// has not purged yet is refused all the same.
import type { Cookies } from "../../runtime/cookies.ts";
import {
  parseSessionState,
  requestSession,
  sessionMaxAge,
  signedInUser,
  type Session,
  type SessionBackend,
  type SessionOptions,
  type SessionValues,
  type UserOf,
} from "./session.ts";
import { sessionCookie, stateFromCookie, stateToCookie } from "./session-cookie.ts";

/**
 * Where the app keeps sessions, by id: a table with a text key, the data as text and when it expires. Ids are
 * random (256 bits) and the cookie that carries one is signed, so a forged id never reaches the store.
 */
export interface SessionStore {
  /** The data kept under `id`, or undefined when there is none (never created, deleted, or purged). */
  read(id: string): Promise<string | undefined>;
  /** A new session under a new id. `expires` is when its record may be purged: reads past it are refused anyway. */
  create(id: string, data: string, expires: Date): Promise<void>;
  /**
   * New data for a session read in this request. Changes nothing when the record is gone (signed out meanwhile,
   * by another request or replica): an insert here would bring a destroyed session back.
   */
  update(id: string, data: string): Promise<void>;
  delete(id: string): Promise<void>;
}

export interface SessionStorageOptions extends SessionOptions {
  readonly store: SessionStore;
}

export interface SessionStorage<Values extends SessionValues = SessionValues, Flash extends SessionValues = Values> {
  /** This request's session, read once per request (later calls, from any loader or action, get the same one). */
  getSession(cookies: Cookies): Promise<Session<Values, Flash>>;
  /** The session's `user`, or `unauthorized()`: the 401 page in a loader or action, 401 JSON in an API route. */
  requireUser(cookies: Cookies): Promise<UserOf<Values>>;
}

const ID_BYTES = 32;

/** A session's state as this storage keeps it: in a record once it holds a value, else its flash values in the cookie. */
type Kept = { record: string } | { flash: string | undefined };

/** Throws a TypeError for a maxAge that is not a positive number of seconds: checked once, at start. */
export function createSessionStorage<
  Values extends SessionValues = SessionValues,
  Flash extends SessionValues = Values,
>(options: SessionStorageOptions): SessionStorage<Values, Flash> {
  const { store, name = "session", maxAge, ...cookieOptions } = options;
  sessionMaxAge(maxAge);
  const storage: SessionStorage<Values, Flash> = {
    getSession: (cookies) =>
      requestSession(cookies, { name, kind: storage, maxAge }, (access): SessionBackend<Kept> => {
        const cookie = sessionCookie(cookies, access, name, cookieOptions);
        // The record this request's session is kept in; undefined until it holds a value.
        let id: string | undefined;
        const dropRecord = async () => {
          const dropped = id;
          id = undefined;
          if (dropped !== undefined) await store.delete(dropped);
        };
        return {
          async read() {
            const signed = await cookie.read("brisk-session-id/1");
            if (signed === undefined) return stateFromCookie(await cookie.read("brisk-session-flash/1"));
            const state = parseSessionState(await store.read(signed));
            if (state) id = signed;
            return state;
          },
          encode(state) {
            if (Object.keys(state.values).length > 0) return { record: JSON.stringify(state) };
            // A flash after a sign-out, a notice to a visitor who never signed in: a record for each would let
            // any client fill the store, one post at a time.
            return { flash: Object.keys(state.flash).length > 0 ? stateToCookie(cookie.name, state) : undefined };
          },
          async write(kept, expires) {
            if ("flash" in kept) {
              await dropRecord();
              return kept.flash === undefined
                ? cookie.delete()
                : cookie.write(kept.flash, "brisk-session-flash/1", expires);
            }
            if (id !== undefined) {
              await store.update(id, kept.record);
              if (cookie.moving) await cookie.write(id, "brisk-session-id/1", expires);
              return;
            }
            id = crypto
              .getRandomValues(new Uint8Array(ID_BYTES))
              .toBase64({ alphabet: "base64url", omitPadding: true });
            await store.create(id, kept.record, new Date(expires));
            await cookie.write(id, "brisk-session-id/1", expires);
          },
          async end() {
            cookie.delete();
            await dropRecord();
          },
        };
      }),
    requireUser: async (cookies) => signedInUser((await storage.getSession(cookies)).get("user")),
  };
  return storage;
}
