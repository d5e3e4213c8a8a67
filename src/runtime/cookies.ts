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

export interface Cookies {
  get(name: string): string | undefined;
  /** The value when its signature verifies with one of COOKIE_SECRET's secrets; a tampered cookie reads as absent. */
  getSigned(name: string): Promise<string | undefined>;
  set(name: string, value: string, options?: CookieOptions): void;
  /** Signed with the first of COOKIE_SECRET's secrets. */
  setSigned(name: string, value: string, options?: CookieOptions): Promise<void>;
  delete(name: string, options?: Pick<CookieOptions, "path" | "domain">): void;
  /** One Set-Cookie value per cookie changed during the request (the framework sends them). */
  setCookieHeaders(): string[];
}
