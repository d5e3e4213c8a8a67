// render.tsx: streams one page as HTML, with its status decided before the first byte.
import type { ReactElement } from "react";
import { renderToReadableStream } from "react-dom/server";
import { App } from "../../runtime/App.tsx";
import { staticNavigation, type Navigation } from "../../runtime/navigation.ts";
import { OUTCOME_MARKER, isOutcome, outcomeHeaders, type OutcomeInfo } from "../../runtime/outcome.ts";
import type { ClientConfig } from "../../runtime/page-payload.ts";
import { scriptString } from "../../runtime/script-json.ts";
import { UNMATCHED_ROUTE } from "../../runtime/trace-names.ts";
import { digestOf } from "../request/digest.ts";
import { withAppHeaders } from "../request/headers.ts";
import { monitorStep, type PageStep, type TraceHeaders } from "../request/monitor.ts";
import { reportError } from "../request/context.ts";
import { ASSETS_PREFIX } from "../assets/assets.ts";
import type { PageDeps, PageRequest } from "./page-request.ts";
import { CODEC_MODULE, scriptValue, wireText } from "./wire.ts";
import { failedPage, redirected } from "./failed-page.ts";
import { resolvePage } from "./resolve-page.ts";
import type { ResolvedPage } from "./page-request.ts";

const HTML = "text/html; charset=utf-8";

/** The redirect an action or loader threw, with the headers it set (a cookie, say) on it, in one Response. */
function redirectResponse(outcome: OutcomeInfo, appHeaders: ResolvedPage["headers"]): Response {
  return new Response(null, {
    status: outcome.status,
    headers: withAppHeaders(outcomeHeaders(outcome), appHeaders, true),
  });
}

/** The client configuration's JSON, made once per server: it is the same on every page. */
const configJson = new WeakMap<ClientConfig, string>();

/**
 * The script that puts the page's BootState on `window.__BRISK__`, read as JSON: a string of JSON given to
 * JSON.parse, which keeps every key a key (an object literal makes `__proto__` a prototype) and which browsers
 * parse faster than a literal. The page is JSON, or the codec's form when JSON would not carry its data exactly.
 */
function bootScript(
  resolved: ResolvedPage,
  clientConfig: ClientConfig,
  host: string,
  nonce: string,
  trace?: TraceHeaders,
): string {
  let config = configJson.get(clientConfig);
  if (config === undefined) configJson.set(clientConfig, (config = JSON.stringify(clientConfig)));
  const rest = JSON.stringify({ host, nonce, ...(trace ? { trace } : {}) });
  const state = `{"page":${wireText(resolved.payload, resolved.rich)},"config":${config},${rest.slice(1)}`;
  return `window.__BRISK__=JSON.parse(${scriptString(state)})`;
}

/**
 * The client entry, and beside it the browser's codec when the page needs it (its chunk, a build's only: a
 * development server's manifest names none): both are fetched at once, where the entry would ask for the
 * codec only once it runs.
 */
function bootstrapModules(resolved: ResolvedPage, { assets }: PageDeps): string[] {
  const codec = resolved.rich ? assets.manifest.chunks[CODEC_MODULE] : undefined;
  return codec ? [assets.entryUrl, ASSETS_PREFIX + codec] : [assets.entryUrl];
}

/**
 * Fetches and runs the page's modules once its first contentful paint is on screen. Run before it, the entry's
 * evaluation (React and the app) held the paint back; fetched before it (a modulepreload in the head), its
 * download and background compile (on a worker, and in the network service) still took
 * the one core a slow phone gives the page from the paint's raster and style work (bench/README.md, first paint).
 * In a hidden tab, where nothing paints, at once (or when the tab is hidden before its paint). On a page that paints
 * nothing contentful, once its load event is followed by a frame and a paint of any kind; failing that, a second
 * later. The load event alone is no sign: nothing delays it now, and on a busy core the first frame is presented
 * (and FCP reported) well after its commit, so the frame after the load event used to start the fetch before the
 * paint of a page that had content.
 */
const RUN_AFTER_PAINT =
  "(m=>{let r=0,l=0;const go=()=>{if(!r){r=1;for(const s of m)import(s)}},has=n=>performance.getEntriesByName(n).length>0;" +
  'if(document.visibilityState!=="visible"||!(PerformanceObserver.supportedEntryTypes||[]).includes("paint"))return go();' +
  'const check=()=>{if(has("first-contentful-paint")||l&&has("first-paint"))go()};' +
  'new PerformanceObserver(check).observe({type:"paint",buffered:true});' +
  'addEventListener("visibilitychange",go,{once:true});' +
  'addEventListener("load",()=>requestAnimationFrame(()=>setTimeout(()=>{l=1;check();setTimeout(go,1e3)})),{once:true})})';

/** Last resort when even the error page fails to render: static, still honest, still with the digest. */
function plainErrorPage(host: string, digest: string, headers: Record<string, string>): Response {
  const safeHost = host.replace(/[^a-zA-Z0-9.:\-[\]]/g, "");
  const body = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Application error</title><main role="alert"><h1>Application error</h1><p>A server-side exception has occurred while loading ${safeHost}.</p><p class="digest">Digest: <code>${digest}</code></p></main></html>`;
  return new Response(body, {
    status: 500,
    headers: { ...headers, "content-type": HTML, "cache-control": "no-store" },
  });
}

/**
 * The shell did not render: what failed, the deepest route level that had begun to render (where it failed,
 * as far as the server can tell), and the HTML headers (with their nonce) the last resort goes out with.
 */
interface ShellFailure {
  error: unknown;
  depth: number | undefined;
  headers: Record<string, string>;
}

/** The app's root element on the server, with the page `navigation` shows and the streamed values it awaits. */
export function appElement(
  deps: PageDeps,
  navigation: Navigation,
  settlements: ResolvedPage["settlements"],
  onLevel: (level: number) => void,
): ReactElement {
  return (
    <App
      app={deps.app}
      navigation={navigation}
      settlements={settlements}
      inlineStyles={deps.assets.inlineStyles}
      onLevel={onLevel}
      scriptValue={scriptValue}
    />
  );
}

/** What one response's render of a resolved page is made of. */
export interface DocumentParts {
  nonce: string;
  /** The HTML headers, the CSP naming the nonce among them; documentResponse fills in the rest. */
  headers: Record<string, string>;
  root: ReactElement;
  /** The inline script that boots the client: the page's state, then the entry once the page has painted. */
  boot: string;
  /** React's onError: a digest for an error, the outcome's marker for an outcome, nothing for a visitor who left. */
  onError(error: unknown): string | undefined;
  /** The deepest route level that has begun to render. */
  depth(): number | undefined;
}

export function documentParts(
  { request, url, context }: PageRequest,
  resolved: ResolvedPage,
  deps: PageDeps,
): DocumentParts {
  const host = url.hostname;
  const nonce = deps.security.nonce();
  const { payload } = resolved;
  const navigation = staticNavigation(
    { path: payload.path, search: payload.search, page: { payload, data: resolved.data } },
    deps.clientConfig,
    host,
    nonce,
  );
  // Taken here, outside the render's own span: the browser continues the page's transaction.
  const trace = deps.monitor?.traceHeaders?.();
  let depth: number | undefined;
  const onLevel = (level: number) => void (depth = Math.max(depth ?? 0, level));
  const modules = bootstrapModules(resolved, deps);
  return {
    nonce,
    headers: deps.security.html(nonce),
    root: appElement(deps, navigation, resolved.settlements, onLevel),
    boot: `${bootScript(resolved, deps.clientConfig, host, nonce, trace)};${RUN_AFTER_PAINT}(${JSON.stringify(modules)})`,
    onError(error) {
      // A visitor who leaves aborts the render; that is not a failure of the page.
      if (request.signal.aborted) return;
      if (isOutcome(error)) return `${OUTCOME_MARKER}:${error.kind}`;
      return reportError(context, error, "render", deps.capture);
    },
    depth: () => depth,
  };
}

/** The document's response: `body` (a stream, or all of it) with the resolved page's status, its headers and the app's. */
export function documentResponse(
  body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>,
  { context }: PageRequest,
  resolved: ResolvedPage,
  headers: Record<string, string>,
): Response {
  const failed = resolved.status >= 500 || resolved.payload.outcome !== undefined;
  // Filled in place: this object is the response's only copy of its headers.
  headers["content-type"] = HTML;
  headers["cache-control"] = failed ? "no-store" : "private, no-cache";
  headers["x-request-id"] = context.id;
  // A body all there says so: it is compressed in one call, not through a stream's encoder (compress.ts).
  if (body instanceof Uint8Array) headers["content-length"] = String(body.byteLength);
  return new Response(body, { status: resolved.status, headers: withAppHeaders(headers, resolved.headers, failed) });
}

/** The document's stream, once its shell has rendered; a redirect instead, or what failed. */
async function streamDocument(
  page: PageRequest,
  resolved: ResolvedPage,
  deps: PageDeps,
  step: PageStep = "render",
): Promise<Response | ShellFailure> {
  const { request, context } = page;
  if (redirected(resolved)) return redirectResponse(resolved.payload.outcome!, resolved.headers);
  const parts = documentParts(page, resolved, deps);
  try {
    const render = () =>
      renderToReadableStream(parts.root, {
        bootstrapScriptContent: parts.boot,
        // The style nonce: React writes it on the inlined stylesheets only when told it here too.
        nonce: { script: parts.nonce, style: parts.nonce },
        signal: request.signal,
        onError: parts.onError,
      });
    const stream = await monitorStep(deps.monitor, step, resolved.payload.route ?? UNMATCHED_ROUTE, render);
    context.done = stream.allReady;
    return documentResponse(stream, page, resolved, parts.headers);
  } catch (error) {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    return { error, depth: parts.depth(), headers: parts.headers };
  }
}

/** The document of a page whose action and loader have run. */
export async function renderResolved(page: PageRequest, resolved: ResolvedPage, deps: PageDeps): Promise<Response> {
  let failure = await streamDocument(page, resolved, deps);
  if (failure instanceof Response) return failure;
  // The shell failed: render again as the fallback of the route it failed in, inside the levels above it;
  // if that fails too (or there is none), as the app's outcome page or error page.
  if (failure.depth !== undefined) {
    const inRoute = failedPage(resolved, failure.error, failure.depth, page.context, deps, "render");
    if (inRoute.payload.boundary) {
      const second = await streamDocument(page, inRoute, deps, "fallback");
      if (second instanceof Response) return second;
      failure = second;
    }
  }
  const appPage = failedPage(resolved, failure.error, undefined, page.context, deps, "render");
  const last = await streamDocument(page, appPage, deps, "fallback");
  if (last instanceof Response) return last;
  const digest = digestOf(last.error) ?? reportError(page.context, last.error, "render", deps.capture);
  return plainErrorPage(page.url.hostname, digest, last.headers);
}

export async function renderPage(page: PageRequest, deps: PageDeps): Promise<Response> {
  return renderResolved(page, await resolvePage(page, deps), deps);
}
