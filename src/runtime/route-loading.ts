// route-loading.ts: loads a route's code and stylesheets before it renders, retrying each once.
import { isLazyPage } from "./lazy-page.ts";
import { failedModuleUrl } from "./retry-import.ts";
import type { PagePayload } from "./page-payload.ts";
import type { RouteTree } from "./route-tree.ts";

/**
 * React 19's `precedence` group of every route stylesheet: the document renders its links with it, and the
 * client adds a route's stylesheet into the same group, so React adopts the link instead of adding a second.
 * It lives here, with the entry's code: in page-payload.ts it would make that module a chunk shared with the
 * navigation code, one more request on every first visit.
 */
export const STYLESHEET_PRECEDENCE = "brisk";

/**
 * The group of the app's inlined stylesheets: a group of its own, as React puts a group's inline <style>
 * after its links, and the app's rules must come before the routes' in the cascade. Named first, it is
 * written first.
 */
export const INLINE_STYLE_PRECEDENCE = "brisk-inline";

/** A stylesheet that has not loaded by then is treated as failed: a navigation never hangs on one. */
const STYLESHEET_TIMEOUT_MS = 4000;

/** A route resource that failed twice; `resource` is its URL when known. */
export class RouteLoadError extends Error {
  constructor(
    readonly resource: string,
    options?: ErrorOptions,
  ) {
    super(`could not load ${resource}`, options);
    this.name = "RouteLoadError";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A few hundred ms, jittered, so a fleet of clients does not retry in step. */
const retryDelay = () => 200 + Math.random() * 300;

async function withOneRetry(attempt: () => Promise<unknown>, describe: (error: unknown) => string): Promise<void> {
  try {
    await attempt();
  } catch {
    await sleep(retryDelay());
    try {
      await attempt();
    } catch (error) {
      throw new RouteLoadError(describe(error), { cause: error });
    }
  }
}

/** Resolves when the link loads; a link that errors or never answers is removed so a retry starts afresh. */
function settle(link: HTMLLinkElement): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`stylesheet timed out after ${STYLESHEET_TIMEOUT_MS} ms`)),
      STYLESHEET_TIMEOUT_MS,
    );
    function fail(error: Error) {
      clearTimeout(timer);
      link.remove();
      reject(error);
    }
    link.addEventListener("load", () => (clearTimeout(timer), resolve()), { once: true });
    link.addEventListener("error", () => fail(new Error("stylesheet failed to load")), { once: true });
  });
}

function loadStylesheet(href: string): Promise<void> {
  const existing = document.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`);
  // Chromium gives a link that failed before our code ran (the server's own) an empty sheet, so an
  // empty sheet counts as failed; a truly empty stylesheet only costs one more (cached) fetch.
  if (existing?.sheet && existing.sheet.cssRules.length > 0) return Promise.resolve();
  // Still loading: wait for it rather than fetch it twice.
  if (existing && !existing.sheet) return settle(existing);
  existing?.remove();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  // The attribute React 19 looks for, so it adopts this link instead of adding a second one.
  link.dataset.precedence = STYLESHEET_PRECEDENCE;
  const done = settle(link);
  const last = [
    ...document.head.querySelectorAll(`link[rel="stylesheet"][data-precedence="${STYLESHEET_PRECEDENCE}"]`),
  ].at(-1);
  if (last) last.after(link);
  else document.head.append(link);
  return done;
}

/** Loads the stylesheets of the page and the code of every code-split level of it. */
export async function loadRoute(payload: PagePayload, tree: RouteTree): Promise<void> {
  const components = payload.levels.map(({ id }) => tree.byId.get(id)?.route.component);
  await Promise.all([
    ...payload.assets.css.map((href) =>
      withOneRetry(
        () => loadStylesheet(href),
        () => new URL(href, location.href).href,
      ),
    ),
    ...components.map((component) =>
      isLazyPage(component)
        ? withOneRetry(
            () => component.preload(),
            (e) => failedModuleUrl(e) ?? `the code of route ${payload.route ?? ""}`,
          )
        : undefined,
    ),
  ]);
}
