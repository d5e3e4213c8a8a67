// level-context.ts: what a loader or an action is given (params, search, cookies…), and what it adds to the
// answer (headers, cookies), collected here and put on the document, the page data or the redirect alike.
import { RouterContextProvider } from "../../runtime/router-context.ts";
import type { ActionBody, ActionContext, LoaderContext } from "../../runtime/route.ts";
import { createCookies, type Cookies, type CookieSettings } from "../cookies/cookies.ts";

export interface RequestContext {
  /**
   * The context of one route level, with its own params: the action's when the request carries a
   * submission (loaders get the body too). Every level shares the request's cookies, answer headers and the
   * context its middleware filled.
   */
  ctx(params: Record<string, string>): LoaderContext & Partial<Pick<ActionContext, "body">>;
  /** The body of a form post, once read: the action's (middleware runs before it is read). */
  body?: ActionBody;
  /** The headers loaders and actions set, then one Set-Cookie per cookie they changed. */
  responseHeaders(): Array<[string, string]>;
}

export function requestContext(request: Request, url: URL, settings: CookieSettings, body?: ActionBody): RequestContext {
  let cookies: Cookies | undefined;
  const headers = new Map<string, string>();
  let context: RouterContextProvider | undefined;
  const setHeader = (name: string, value: string) => {
    const key = name.toLowerCase();
    // Cookies have their own API, which keeps one Set-Cookie per cookie and the defaults.
    if (key === "set-cookie") throw new TypeError("setHeader: use ctx.cookies.set() for cookies");
    headers.set(key, value);
  };
  const self: RequestContext = {
    body,
    ctx: (params) => ({
      body: self.body,
      params,
      // Made when first read: most loaders never look at them.
      get search() {
        return url.searchParams;
      },
      url,
      headers: request.headers,
      get cookies() {
        return (cookies ??= createCookies(request.headers.get("cookie"), settings, request.method));
      },
      setHeader,
      signal: request.signal,
      // Made when first read: a page without middleware seldom reads it.
      get context() {
        return (context ??= new RouterContextProvider());
      },
    }),
    responseHeaders() {
      const all: Array<[string, string]> = [...headers];
      for (const cookie of cookies?.setCookieHeaders() ?? []) all.push(["set-cookie", cookie]);
      return all;
    },
  };
  return self;
}
