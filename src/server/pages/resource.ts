// resource.ts: answers a route without a page (an RSS feed, a like button's endpoint) with what its loader or
// action returned: a Response as it is, any other value as JSON. An outcome or an error ends it as it ends a
// page, as HTML only for a request that takes HTML (a browser's), else as JSON.
import { ActionData } from "../../runtime/action-data.ts";
import { isOutcome } from "../../runtime/outcome.ts";
import type { ActionContext } from "../../runtime/route.ts";
import type { RouteMatch } from "../../runtime/route-tree.ts";
import { acceptsHtml } from "../http/accept.ts";
import { INTERNAL_SERVER_ERROR, jsonError } from "../request/responses.ts";
import { addAppHeaders } from "../request/headers.ts";
import { withDocumentHeaders } from "../http/html-response-headers.ts";
import { monitorStep } from "../request/monitor.ts";
import { reportError } from "../request/context.ts";
import { pageDataOf } from "./page-data.ts";
import type { PageDeps, PageRequest } from "./page-request.ts";
import { renderResolved } from "./render.tsx";
import { pageScope } from "./page-scope.ts";
import { afterMethod, failedPage } from "./failed-page.ts";
import { pageBefore } from "./resolve-page.ts";
import { refusedSearch } from "./search-schema.ts";

/** The headers the route set go on what it returned; a Response of its own making is copied only then. */
function withHeaders(response: Response, headers: Array<[string, string]>): Response {
  if (headers.length === 0) return response;
  const out = new Response(response.body, response);
  addAppHeaders(out.headers, headers);
  return out;
}

function asResponse(returned: unknown): Response {
  if (returned instanceof Response) return returned;
  if (returned instanceof ActionData) return Response.json(returned.value ?? null, { status: returned.status });
  return returned === undefined ? new Response(null, { status: 204 }) : Response.json(returned);
}

export async function resourceResponse(page: PageRequest, match: RouteMatch, deps: PageDeps): Promise<Response> {
  const { request, url, context, submission } = page;
  context.route = match.pattern;
  const level = match.levels.at(-1)!;
  const { route, id } = level.node;
  const scope = page.scope ?? pageScope(context, request, url, deps.cookies, submission);
  // pages.ts let through only a method the route answers: a post has an action, a read a loader.
  const [step, run] = submission ? (["action", route.action!] as const) : (["loader", route.loader!] as const);
  try {
    if (page.failure) throw page.failure.error;
    const refused = refusedSearch(match, scope);
    if (refused) throw refused.error;
    const returned = await monitorStep(deps.monitor, step, id, async () =>
      run(scope.argsFor(level.params, route.search) as ActionContext),
    );
    return withDocumentHeaders(withHeaders(asResponse(returned), scope.responseHeaders()), deps.security);
  } catch (thrown) {
    const error = afterMethod(request, thrown);
    const phase = page.failure ? "middleware" : step;
    const headers = scope.responseHeaders();
    // A browser, or the client's own page data (a form posted with JavaScript), meets the pages it would
    // meet on a page: a redirect it follows, the outcome page, the error page with its digest.
    if (page.isData || acceptsHtml(request)) {
      const ended = failedPage({ ...pageBefore(url, null, deps), headers }, error, undefined, context, deps, phase);
      return page.isData ? pageDataOf(page, ended, deps) : renderResolved(page, ended, deps);
    }
    if (isOutcome(error)) return withHeaders(error.toResponse("json"), headers);
    const digest = reportError(context, error, phase, deps.capture);
    return withHeaders(jsonError(500, INTERNAL_SERVER_ERROR, { digest, requestId: context.id }), headers);
  }
}
