// prerender.ts: routes marked `prerender` are rendered once; each request gets the stored page with its own
// nonce, host and request id put in, a strong ETag and a 304 on a match, re-rendered in the background after
// `revalidate` seconds.
import type { RouteDefinition } from "../runtime/route.ts";
import { renderPage, type RenderDeps } from "./render.tsx";
import { createRequestRecord, reportError, type RequestRecord } from "./request-record.ts";

/** Rendered where the response's own values go; the stored HTML is split there once. */
const NONCE_SLOT = "brisk0prerender0nonce0slot";
const HOST_SLOT = "brisk-prerender-host.invalid";
const SLOTS = new RegExp(`(${NONCE_SLOT}|${HOST_SLOT.replaceAll(".", "\\.")})`);

interface StoredPage {
  /** The HTML between the slots; `slots[i]` goes after `parts[i]`. */
  parts: string[];
  slots: Array<"nonce" | "host">;
  etag: string;
  /** The render's headers but the CSP (which names the nonce) and the request id. */
  headers: Array<[string, string]>;
  renderedAt: number;
}

/** Why a route cannot be prerendered: it reads the request, or it does not answer 200. */
export class PrerenderError extends Error {
  override name = "PrerenderError";
}

/** A request whose headers, cookies and search throw: a prerendered page cannot depend on them. */
function guardedRequest(path: string): { request: Request; url: URL; read: () => string | undefined } {
  let read: string | undefined;
  const refuse = (what: string): never => {
    read ??= what;
    throw new PrerenderError(`reads ${what} while prerendered`);
  };
  const base = new Request(`http://${HOST_SLOT}${path}`);
  const headers = new Proxy(base.headers, {
    get: (_, name) => (name === "get" ? (h: string) => refuse(h.toLowerCase() === "cookie" ? "cookies" : `the header ${h}`) : refuse("headers")),
  });
  const own = <T extends object>(target: T, trap: (name: string | symbol) => unknown) =>
    new Proxy(target, {
      get(t, name) {
        const special = trap(name);
        if (special !== undefined) return special;
        const value = Reflect.get(t, name, t);
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
  const request = own(base, (name) => (name === "headers" ? headers : undefined));
  const url = own(new URL(base.url), (name) => (name === "searchParams" ? refuse("search") : undefined));
  return { request, url, read: () => read };
}

async function renderStored(route: RouteDefinition, deps: RenderDeps): Promise<StoredPage> {
  const { request, url, read } = guardedRequest(route.path);
  const record = createRequestRecord(request);
  // No monitor: a stored page must not carry the trace of the render that made it to every visitor.
  const slotDeps: RenderDeps = { ...deps, monitor: undefined, security: { ...deps.security, nonce: () => NONCE_SLOT }, capture: () => {} };
  const response = await renderPage(request, url, record, slotDeps);
  const html = await response.text();
  const reads = read();
  if (reads) throw new PrerenderError(`route ${route.path} is marked prerender, but its loader reads ${reads}`);
  if (response.status !== 200) {
    const why = record.errors[0] ? `${record.errors[0].name}: ${record.errors[0].message}` : `status ${response.status}`;
    throw new PrerenderError(`route ${route.path} is marked prerender, but its render answered ${why}`);
  }
  const pieces = html.split(SLOTS);
  const parts = pieces.filter((_, i) => i % 2 === 0);
  const slots = pieces.filter((_, i) => i % 2 === 1).map((s) => (s === NONCE_SLOT ? "nonce" : "host"));
  const headers = [...response.headers].filter(([name]) => name !== "content-security-policy" && name !== "x-request-id");
  return { parts, slots, headers, etag: `"${Bun.hash(html).toString(36)}"`, renderedAt: Date.now() };
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim() === etag);
}

export interface Prerendered {
  /**
   * Renders every route marked `prerender` (once, however often it is called); rejects naming the first that
   * cannot be. Until it is called and done, those routes render on every request as any other.
   */
  start(): Promise<void>;
  /** The stored page for a GET or HEAD of `url`, or undefined when it has none (yet). */
  answer(request: Request, url: URL, record: RequestRecord): Response | undefined;
}

export function prerenderRoutes(routes: readonly RouteDefinition[], deps: RenderDeps): Prerendered {
  const marked = routes.filter((r) => r.prerender);
  const stored = new Map<string, StoredPage>();
  const refreshing = new Set<string>();
  for (const route of marked) {
    if (/[:*]/.test(route.path)) throw new PrerenderError(`route ${route.path} is marked prerender, but its path has parameters`);
  }
  let started: Promise<void> | undefined;

  /** Stale-while-revalidate: one re-render at a time per route; a failed one keeps the page and is reported. */
  function refresh(route: RouteDefinition, page: StoredPage, record: RequestRecord) {
    if (!route.revalidate || Date.now() - page.renderedAt < route.revalidate * 1000 || refreshing.has(route.path)) return;
    refreshing.add(route.path);
    renderStored(route, deps)
      .then(
        (fresh) => void stored.set(route.path, fresh),
        (error: unknown) => {
          // Tried again only after another full age: a failing loader is not re-run on every request.
          page.renderedAt = Date.now();
          reportError(record, error, "prerender", deps.capture);
        },
      )
      .finally(() => refreshing.delete(route.path));
  }

  return {
    start: () =>
      (started ??= Promise.all(marked.map(async (route) => void stored.set(route.path, await renderStored(route, deps)))).then(() => {})),
    answer(request, url, record) {
      const page = url.search ? undefined : stored.get(url.pathname);
      if (!page) return undefined;
      const route = marked.find((r) => r.path === url.pathname)!;
      record.route = route.path;
      refresh(route, page, record);
      const nonce = deps.security.nonce();
      const headers = new Headers(page.headers);
      headers.set("content-security-policy", deps.security.html(nonce)["content-security-policy"]!);
      headers.set("x-request-id", record.id);
      headers.set("etag", page.etag);
      if (matches(request.headers.get("if-none-match"), page.etag)) return new Response(null, { status: 304, headers });
      let html = "";
      for (const [i, part] of page.parts.entries()) {
        html += part;
        const slot = page.slots[i];
        if (slot) html += slot === "nonce" ? nonce : url.hostname;
      }
      return new Response(html, { status: 200, headers });
    },
  };
}
