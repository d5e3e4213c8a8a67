// page-payload.ts: the shape of one page's state, shared by the server, the wire and the client.
import type { Mode } from "./app-server.ts";
import type { OutcomeInfo } from "./outcome.ts";

/** Bumped when the wire format changes, so an old client does a full page load instead of misreading. */
export const PAGE_DATA_VERSION = 3;

/** Prefix of the page-data URLs that client navigation fetches: `/__data/examples/search?q=x`. */
export const PAGE_DATA_PREFIX = "/__data";

/**
 * The page-data query parameter by which the client says how many outer levels of the page it already
 * shows and keeps (a layout between two of its children): their loaders do not run. In the URL, not a
 * header, so a cache that keeps page data keeps partial and whole responses apart. On a post, only
 * `KEEP_ALL`: a fetcher's post from another page shows none of the target's levels, so no loader runs after
 * the action; any other post loads every level again, to show what the action changed.
 */
export const KEEP_PARAM = "_keep";
export const KEEP_ALL = "all";

export const PAGE_DATA_TYPE = "application/x-ndjson";

/**
 * The build a form post through page data comes from: the server refuses (409) a post from another build
 * before its action runs, and the client sends the form again as a document post, which the new build answers.
 */
export const BUILD_HEADER = "x-brisk-build";

export interface PageError {
  /** Short, unique to the occurrence: the key that joins the page, the log line and Sentry events. */
  digest: string;
  side: "server" | "client";
  /** Only outside production. */
  message?: string;
  stack?: string;
}

export interface RouteAssets {
  /** Stylesheets linked, in cascade order after the inlined ones. */
  css: string[];
  js: string[];
  /** The app's stylesheets the document carries inline (by URL; the server has their text), first in the cascade. */
  inline?: string[];
}

/** What the server knows about a page once its loader has run: the first line of page data. */
export interface PagePayload {
  v: typeof PAGE_DATA_VERSION;
  buildId: string;
  /** Pathname and search (without `?`) the data belongs to. */
  path: string;
  search: string;
  /** The matched branch's full pattern, or null when nothing matched. */
  route: string | null;
  /** The matched routes, outermost first. */
  levels: LevelPayload[];
  /** How the page ended, when its loaders or its render did not give it data to show. */
  outcome?: OutcomeInfo;
  error?: PageError;
  /** Where a route's own fallback shows the outcome or error; without it the app's page does. */
  boundary?: Boundary;
  assets: RouteAssets;
  /** What the route's action returned, when this page answers a form post. */
  actionData?: unknown;
}

/** One matched route's loader data. */
export interface LevelPayload {
  /** The route's id. */
  id: string;
  /** Loader data without its deferred keys; absent for a kept level, or below a level that failed. */
  data?: unknown;
  /** Top-level loader data keys whose values are still streaming. */
  deferred?: string[];
  /** The client asked to keep what it shows of this level (KEEP_PARAM): its loader did not run. */
  kept?: true;
  /**
   * The search as the route's `search` schema parsed it (`useRouteSearch`): present for a route with one, kept
   * or not. The browser never parses: it reads the server's parse.
   */
  query?: Record<string, unknown>;
}

/** A route fallback standing in for the levels from `depth` on, inside the `depth` levels above it. */
export interface Boundary {
  /** The route whose fallback it is. */
  id: string;
  depth: number;
}

/** One streamed loader value: a later line of page data, or an inline script in the HTML. */
export interface DeferredSettlement {
  /** The id of the route whose loader returned it. */
  route: string;
  key: string;
  value?: unknown;
  error?: PageError;
  outcome?: OutcomeInfo;
}

export interface ClientConfig {
  mode: Mode;
  sentry?: {
    dsn: string;
    environment: string;
    release: string;
    /** Set only with tracing on: the browser then loads its tracing code from `script`. */
    tracing?: { sampleRate: number; script: string };
    /** SENTRY_SEND_DEFAULT_PII: Sentry may infer and keep the visitor's IP address. */
    sendDefaultPii?: boolean;
  };
}

/**
 * The page's state, which the boot script puts on `window.__BRISK__` (render.tsx) before the client entry runs.
 * Its page arrives in the codec's form (an array) when JSON would not carry its data; the entry reads it into
 * this (browser/boot.ts) before anything else reads it.
 */
export interface BootState {
  page: PagePayload;
  config: ClientConfig;
  /** The host name the visitor asked for, as the exception pages name it. */
  host: string;
  /** This response's CSP nonce, so hydration renders the same attributes the server did. */
  nonce?: string;
  /** The server's trace of this page (`sentry-trace`, `baggage`), which the browser's pageload continues. */
  trace?: { "sentry-trace": string; baggage?: string };
}
