// request-context.ts: what a loader or an action is given (params, search, cookies…), and what it adds to the
// answer (headers, cookies), collected here and put on the document, the page data or the redirect alike.
import type { ActionBody, ActionContext, LoaderContext } from "../../runtime/route.ts";
import { createCookies, type Cookies, type CookieSettings } from "../sessions/cookies.ts";

export interface RequestContext {
  /** The action's context when the request carries a submission; the loader gets the same object. */
  ctx: LoaderContext & Partial<Pick<ActionContext, "body">>;
  /** The headers loaders and actions set, then one Set-Cookie per cookie they changed. */
  responseHeaders(): Array<[string, string]>;
}

export function requestContext(
  request: Request,
  url: URL,
  params: Record<string, string>,
  settings: CookieSettings,
  body?: ActionBody,
): RequestContext {
  let cookies: Cookies | undefined;
  const headers = new Map<string, string>();
  // One object for the action and the loader after it: copying it would run the lazy getters below.
  const ctx: RequestContext["ctx"] = {
    body,
    params,
    // Made when first read: most loaders never look at them.
    get search() {
      return url.searchParams;
    },
    url,
    headers: request.headers,
    get cookies() {
      return (cookies ??= createCookies(request.headers.get("cookie"), settings));
    },
    setHeader(name, value) {
      const key = name.toLowerCase();
      // Cookies have their own API, which keeps one Set-Cookie per cookie and the defaults.
      if (key === "set-cookie") throw new TypeError("setHeader: use ctx.cookies.set() for cookies");
      headers.set(key, value);
    },
    signal: request.signal,
  };
  return {
    ctx,
    responseHeaders() {
      const all: Array<[string, string]> = [...headers];
      for (const cookie of cookies?.setCookieHeaders() ?? []) all.push(["set-cookie", cookie]);
      return all;
    },
  };
}
