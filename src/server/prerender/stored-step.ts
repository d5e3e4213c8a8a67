// stored-step.ts: the request pipeline's stored step: a GET or HEAD of a page's path that the app's public files,
// its prerendered pages or its render cache answer as they are. Nothing of the app runs for them, so the pipeline
// sends them before Sentry's request scope and Elysia's routing, which the static ceiling has neither of
// (bench/README.md, prerendered pages against the static ceiling).
import type { RequestContext } from "../request/context.ts";
import { pageTarget, type PageTarget } from "../pages/page-target.ts";
import type { PrerenderedResponses } from "./prerendered-responses.ts";

/** A public file's response, or undefined when the path names none (assets/public-files.ts). */
type PublicFileResponse = (request: Request, pathname: string) => Promise<Response> | undefined;

/** A cached page's kept answer, or undefined (cache/cached-step.ts). */
type CachedResponse = (context: RequestContext, target: PageTarget) => Response | undefined;

/**
 * The stored response to a page's GET or HEAD, or undefined when the pages must answer it. A public file first,
 * at a path the prerendered not-found page would otherwise answer too (its path is one the URL parser leaves as it
 * is, so the context's raw path finds it); then a prerendered page, which carries this server's security headers
 * itself (prerendered-responses.ts); then a cached page's kept answer.
 */
export function storedStep(
  prerendered: PrerenderedResponses | undefined,
  publicFile: PublicFileResponse,
  cached?: CachedResponse,
): (context: RequestContext) => Response | Promise<Response> | undefined {
  return (context) => {
    if (context.method !== "GET" && context.method !== "HEAD") return undefined;
    const file = publicFile(context.request, context.path);
    if (file || (!prerendered && !cached)) return file;
    const page = pageTarget(context);
    if (page instanceof Response) return undefined;
    return prerendered?.response(context.request, page.url, context, page.isData) ?? cached?.(context, page);
  };
}
