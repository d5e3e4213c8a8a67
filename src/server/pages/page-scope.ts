// page-scope.ts: what the middleware, loaders and action of one page request share and are given (params,
// search and its parse by each route's schema, the request's cookies, the values middleware set), and what they add to the response (headers, cookies),
// collected here and put on the document, the page data or the redirect alike.
import type { TObject } from "@sinclair/typebox";
import { RouterContextProvider } from "../../runtime/router-context.ts";
import type { ActionBody, ActionContext, LoaderContext } from "../../runtime/route.ts";
import type { CookieSettings } from "../cookies/cookies.ts";
import { cookiesCheckpoint, cookiesOf, type RequestContext } from "../request/context.ts";
import { appHeaderName } from "../request/headers.ts";
import { parseSearch, type ParsedSearch } from "./search-schema.ts";

/** The `query` of a level without a search schema. */
const NO_QUERY = Object.freeze({});

export interface PageScope {
  /**
   * What one route level's middleware, loader or action is handed, with its own params: the action's when the
   * request carries a submission (loaders get the body too). Every level shares the request's cookies, response
   * headers and the values its middleware set (`context`). `search` is the level's schema, whose parse is its
   * `query`.
   */
  argsFor(params: Record<string, string>, search?: TObject): LoaderContext & Partial<Pick<ActionContext, "body">>;
  /** The search as `schema` parses it, once per request and schema. */
  parsed(schema: TObject): ParsedSearch;
  /** Marks the answer as one that may depend on `what` of the visitor's request: it is never cached. */
  readVisitor(what: string): void;
  /** The body of a form post, once read: the action's (middleware runs before it is read). */
  body?: ActionBody;
  /** The headers loaders and actions set, then one Set-Cookie per cookie they changed. */
  responseHeaders(): Array<[string, string]>;
  /**
   * The headers and cookies as they are now, to go back to: calling what it returns drops every one set after,
   * and the request's sessions with them (they are read again from the cookies left).
   */
  checkpoint(): () => void;
}

/**
 * The scope of a page request: its cookies are the request context's own jar (context.ts), and `request` the one
 * the page runs for (a HEAD's has a signal of its own).
 */
export function pageScope(
  context: RequestContext,
  request: Request,
  url: URL,
  settings: CookieSettings,
  body?: ActionBody,
): PageScope {
  const headers = new Map<string, string>();
  let values: RouterContextProvider | undefined;
  const parses = new Map<TObject, ParsedSearch>();
  const setHeader = (name: string, value: string) => void headers.set(appHeaderName(name), value);
  const self: PageScope = {
    body,
    argsFor: (params, search) => ({
      body: self.body,
      params,
      // Made when first read: most loaders never look at them.
      get search() {
        return url.searchParams;
      },
      // Parsed when first read by a middleware (a guard that reads none refuses first); the page parses every
      // level's before its action and loaders run (resolve-page.ts), so they read a parse that succeeded.
      get query() {
        if (!search) return NO_QUERY;
        const parsed = self.parsed(search);
        if ("refusal" in parsed) throw parsed.refusal;
        return parsed.query;
      },
      url,
      get headers() {
        self.readVisitor("the request headers");
        return request.headers;
      },
      // Its reads mark the answer as the visitor's own (context.ts), not this: a loader takes `{ cookies }` whole.
      get cookies() {
        return cookiesOf(context, settings)!;
      },
      setHeader,
      signal: request.signal,
      // Made when first read: a page without middleware seldom reads it.
      get context() {
        return (values ??= new RouterContextProvider());
      },
    }),
    readVisitor(what) {
      context.visitorRead ??= what;
    },
    parsed(schema) {
      let parsed = parses.get(schema);
      if (!parsed) parses.set(schema, (parsed = parseSearch(schema, url.searchParams)));
      return parsed;
    },
    responseHeaders() {
      const all: Array<[string, string]> = [...headers];
      for (const cookie of context.jar?.setCookieHeaders() ?? []) all.push(["set-cookie", cookie]);
      return all;
    },
    checkpoint() {
      const kept = [...headers];
      const restoreCookies = cookiesCheckpoint(context);
      return () => {
        headers.clear();
        for (const [name, value] of kept) headers.set(name, value);
        restoreCookies();
      };
    },
  };
  return self;
}
