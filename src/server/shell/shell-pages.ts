// shell-pages.ts: partial prerendering. Routes marked `shell` have their page prerendered once when a production
// server starts (prerender-shell.tsx); each request for the document still runs the middleware and the loaders,
// which decide its status, and a 200 is answered with the shell's bytes and its holes resumed (resume-shell.ts).
import type { RouteDefinition } from "../../runtime/route.ts";
import { isResourceRoute, routeTree, type RouteMatch } from "../../runtime/route-tree.ts";
import type { PageDeps, PageRequest, PageShells } from "../pages/page-request.ts";
import { renderResolved } from "../pages/render.tsx";
import { resolvePage } from "../pages/resolve-page.ts";
import { PrerenderError } from "../prerender/prerender-routes.ts";
import { prerenderShell, type Shell } from "./prerender-shell.tsx";
import { loadResume, resumeShell } from "./resume-shell.ts";

/** Why `route`, at `path` (its full pattern, which `match` matches), cannot be a shell; undefined if it can. */
function refusal(path: string, route: RouteDefinition, match: RouteMatch | null): string | undefined {
  // React resumes only the tree it prerendered: every part of it that is not a hole must be the same for every
  // request, and a page's params, search and key (its path and search) are parts of it.
  if (/[:*]/.test(path)) return "its path has parameters, which the shell would have to be rendered for";
  if (route.children) return "it has children: mark the child whose page is the shell";
  if (isResourceRoute(route)) return "it has no page";
  if (route.prerender) return "it is marked prerender too: a page is either stored whole or a shell";
  if (match?.route !== route) return "another route answers its path";
  if (match.levels.some(({ node }) => node.route.search))
    return "it or a route above it parses the search (`search`), which the shell would be rendered without";
  return undefined;
}

/** The document of a shell route's request: its loaders decide, then the shell answers a 200 if it can. */
async function shellDocument(page: PageRequest, shell: Shell, deps: PageDeps, config: string): Promise<Response> {
  const resolved = await resolvePage(page, deps);
  // Streamed loader values settle through scripts the shell has no place for: such a page is rendered whole.
  if (resolved.status !== 200 || resolved.settlements.length > 0) return renderResolved(page, resolved, deps);
  return (await resumeShell(page, resolved, shell, deps, config)) ?? renderResolved(page, resolved, deps);
}

export function shellPages(routes: readonly RouteDefinition[], deps: PageDeps): PageShells {
  const tree = routeTree(routes);
  const marked = new Map<string, RouteMatch>();
  for (const { pattern, route } of tree.nodes) {
    if (!route.shell) continue;
    const match = tree.match(pattern);
    const why = refusal(pattern, route, match);
    if (why) throw new PrerenderError(`route ${pattern} is marked shell, but ${why}`);
    marked.set(pattern, match!);
  }
  const shells = new Map<string, Shell>();
  // As the boot script's JSON holds it (render.tsx), for the slot the shell may hold it in.
  const config = JSON.stringify(deps.clientConfig);
  let started: Promise<void> | undefined;

  async function renderAll(): Promise<void> {
    if (marked.size > 0) await loadResume();
    await Promise.all(
      [...marked].map(async ([path, match]) => void shells.set(path, await prerenderShell(path, match, deps))),
    );
  }

  return {
    start: () => (started ??= renderAll()),
    respond(page, pageDeps) {
      const { match, url } = page;
      const shell = match && !match.missing ? shells.get(match.pattern) : undefined;
      if (!shell || page.submission || url.search !== "" || url.pathname !== match!.pattern) return undefined;
      return shellDocument(page, shell, pageDeps, config);
    },
  };
}
