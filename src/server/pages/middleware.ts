// middleware.ts: a page's middleware, from every matched level outermost first, run as one chain
// (request/chain.ts) around the rest of the page: the post's body, the action, the loaders, the render.
import type { RouteMatch } from "../../runtime/route-tree.ts";
import { runChain, type MiddlewareFailure, type MiddlewareStep } from "../request/chain.ts";
import type { PageScope } from "./page-scope.ts";

/** Every middleware of the branch, outermost level first, each with its own level's params. */
function stepsOf(request: Request, match: RouteMatch, scope: PageScope): MiddlewareStep[] {
  const steps: MiddlewareStep[] = [];
  match.levels.forEach(({ node, params }, depth) => {
    // Defined, not spread: a spread would read every getter, and `query` parses (and may refuse) when read.
    for (const run of node.route.middleware ?? [])
      steps.push({ run, depth, args: () => withRequest(scope.argsFor(params, node.route.search), request, scope) });
  });
  return steps;
}

/** A middleware's args: its level's, and the request, whose reading marks the answer as the visitor's own. */
function withRequest<Args extends object>(args: Args, request: Request, scope: PageScope): Args & { request: Request } {
  return Object.defineProperty(args, "request", {
    enumerable: true,
    get() {
      scope.readVisitor("the request");
      return request;
    },
  }) as Args & { request: Request };
}

/** Whether any level of the branch has middleware: most pages have none and skip the chain entirely. */
export function hasMiddleware(match: RouteMatch | null): match is RouteMatch {
  return match !== null && match.levels.some(({ node }) => node.route.middleware?.length);
}

/** The page's middleware around `respond`, sharing the page's scope with its loaders and action. */
export function runMiddleware(
  request: Request,
  match: RouteMatch,
  scope: PageScope,
  respond: (failure?: MiddlewareFailure) => Promise<Response>,
): Promise<Response> {
  return runChain(stepsOf(request, match, scope), respond, () => scope.checkpoint());
}
