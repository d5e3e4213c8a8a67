// page-request.ts: what every step of a page request reads: the request itself, and the server's parts.
import type { AppDefinition } from "../../runtime/app-definition.ts";
import type { RouteMatch } from "../../runtime/route-tree.ts";
import type { ClientConfig, DeferredSettlement, PagePayload } from "../../runtime/page-payload.ts";
import type { ActionBody } from "../../runtime/route.ts";
import type { Mode } from "../../runtime/app-server.ts";
import type { ClientAssets } from "../assets/assets.ts";
import type { SecurityHeaders } from "../http/security-headers.ts";
import type { RequestMonitor } from "../request/monitor.ts";
import type { CaptureError, RequestContext } from "../request/context.ts";
import type { CookieSettings } from "../cookies/cookies.ts";
import type { SubmissionLimits } from "../bodies/submission.ts";
import type { MiddlewareFailure } from "../request/chain.ts";
import type { PageScope } from "./page-scope.ts";
import type { RenderPlaces } from "./render-limit.ts";
import type { PageTarget } from "./page-target.ts";

/** One request for a page, as it goes from its checks to the action, the loader and the render. */
export interface PageRequest {
  request: Request;
  /** The page's URL: for page data, the page it asks for (its path without the page-data prefix). */
  url: URL;
  /** Page data for client navigation, rather than the HTML document. */
  isData: boolean;
  /** The request's context: its record, its cookies. */
  context: RequestContext;
  /** A form post's body, read and checked: the route's action runs first. */
  submission?: ActionBody;
  /** Page data only: how many outer levels the client keeps from the page it shows (KEEP_PARAM); Infinity: all. */
  keep?: number;
  /** The routes matched already by the checks before the render, when they ran. */
  match?: RouteMatch | null;
  /** What loaders, actions and middleware share: made before the middleware runs, when it does. */
  scope?: PageScope;
  /** A middleware threw: the page ends at its level, and no action or loader at or below it runs. */
  failure?: MiddlewareFailure;
}

/** The server's parts a page request uses, made once per server (createApp's pageDeps). */
export interface PageDeps extends SubmissionLimits {
  app: AppDefinition;
  match(pathname: string): RouteMatch | null;
  assets: ClientAssets;
  mode: Mode;
  capture: CaptureError;
  cookies: CookieSettings;
  clientConfig: ClientConfig;
  security: SecurityHeaders;
  monitor?: RequestMonitor;
  /** The pages being rendered at once, each visitor's and in all (RENDER_MAX_IN_FLIGHT): past them, 503. */
  renders: RenderPlaces;
  /** The render cache of routes marked `cache` (cache/cached-pages.ts); none in a bare set-up (a test's, a prerender's). */
  cached?: PageCache;
  /** The shells of routes marked `shell` (shell/shell-pages.ts); none in development or a bare set-up. */
  shells?: PageShells;
}

/** The parts of PageDeps the action and loader steps read. */
export type ResolveDeps = Pick<PageDeps, "match" | "assets" | "mode" | "capture" | "cookies" | "monitor">;

export interface ResolvedPage {
  status: number;
  payload: PagePayload;
  /** Each shown level's loader data as components read it, by route id: streamed values are promises. */
  data: Map<string, unknown>;
  settlements: Array<readonly [string, Promise<DeferredSettlement>]>;
  /** Headers the loaders and the action set, Set-Cookie included: on the response whatever it is. */
  headers: Array<[string, string]>;
  /** The matched routes, whose fallbacks a render that fails can still use. */
  match: RouteMatch | null;
  /** Its data needs the codec to reach the browser as it is (wire.ts); JSON carries it exactly otherwise. */
  rich: boolean;
}

/**
 * A cached page's answer: the kept one, when `lookup` allows (a page with middleware, once it has run), or else what
 * `render` answers, kept if it may be.
 */
export type CachedAnswer = (page: PageRequest, lookup: boolean, render: () => Promise<Response>) => Promise<Response>;

/** What the pages ask of the render cache, which stands above them (cache/cached-pages.ts makes it). */
export interface PageCache {
  /** How a request for `target` is answered; undefined when its route is not cached or its method not GET or HEAD. */
  answerFor(target: PageTarget, match: RouteMatch | null, method: string): CachedAnswer | undefined;
}

/** What the pages ask of the shells of routes marked `shell`, which stand above them (shell/shell-pages.ts). */
export interface PageShells {
  /** Prerenders every shell (once, however often it is called); rejects naming the first route that has none. */
  start(): Promise<void>;
  /**
   * The document of a request for a shell route, answered from its shell when its loaders answer 200; undefined
   * for any other request (another route, a form post, a search, a shell not rendered yet): it renders as usual.
   */
  respond(page: PageRequest, deps: PageDeps): Promise<Response> | undefined;
}
