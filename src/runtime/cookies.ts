// cookies.ts: the cookies of one request as loaders, actions and API routes see them. Types only: the
// server makes the jar (src/server/cookies/cookies.ts); pages and API routes name it from here.

export interface CookieOptions {
  /** Seconds from now; 0 deletes it. */
  readonly maxAge?: number;
  readonly expires?: Date | number | string;
  readonly path?: string;
  readonly domain?: string;
  readonly secure?: boolean;
  readonly httpOnly?: boolean;
  readonly sameSite?: "strict" | "lax" | "none";
  readonly partitioned?: boolean;
}

/**
 * A cookie set or deleted during the request reads back as set: a page rendered after its action sees the new
 * value. An invalid cookie name throws a TypeError: it is the app's bug, never a visitor's input.
 */
export interface Cookies {
  /** The value, or undefined; a header of any shape reads without throwing (bad percent-encoding as U+FFFD). */
  get(name: string): string | undefined;
  /** The value when its signature verifies with one of COOKIE_SECRET's secrets; a tampered cookie reads as absent. */
  getSigned(name: string): Promise<string | undefined>;
  /** HttpOnly, SameSite=Lax, Path=/ and, in production, Secure unless `options` say otherwise, one by one. */
  set(name: string, value: string, options?: CookieOptions): void;
  /** As `set`, signed with the first of COOKIE_SECRET's secrets. */
  setSigned(name: string, value: string, options?: CookieOptions): Promise<void>;
  /** An expired cookie: its path and domain must be the ones it was set with. */
  delete(name: string, options?: Pick<CookieOptions, "path" | "domain">): void;
  /** One Set-Cookie value per cookie changed, for a document and page data alike (the framework sends them). */
  setCookieHeaders(): string[];
}
