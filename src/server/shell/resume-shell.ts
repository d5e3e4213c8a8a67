// resume-shell.ts: a shell route's document for one request whose loaders answered 200: the shell's bytes from
// memory with this response's nonce, the boot script with this request's page, then React's resume of the holes
// with this request's data.
import type { resume as Resume } from "react-dom/server.edge";
import type { PostponedState } from "react-dom/static";
import { UNMATCHED_ROUTE } from "../../runtime/trace-names.ts";
import type { PageDeps, PageRequest, ResolvedPage } from "../pages/page-request.ts";
import { documentParts, documentResponse } from "../pages/render.tsx";
import type { SlotValues } from "../prerender/page-slots.ts";
import { bytesOf, gzipOf } from "../prerender/prerendered-page.ts";
import { pickEncoding } from "../http/accept-encoding.ts";
import { ONE_SHOT_MAX_BYTES } from "../http/compress.ts";
import { hasMiddleware } from "../pages/middleware.ts";
import { reportError } from "../request/context.ts";
import { monitorStep } from "../request/monitor.ts";
import type { Shell } from "./prerender-shell.tsx";
import { gzipWithTail } from "./shell-gzip.ts";

const encoder = new TextEncoder();

/**
 * React's `resume` from its edge build, the build that prerendered the shells (prerender-shell.tsx): it writes the
 * holes into 2 KB chunks where Bun's build hands the stream each small piece, a tenth of a shell answer's CPU.
 * Loaded with the first shell, so an app without one never loads it.
 */
let edgeResume: typeof Resume | undefined;

export async function loadResume(): Promise<void> {
  edgeResume ??= (await import("react-dom/server.edge")).resume;
}
const GZIP_ONLY = ["gzip"] as const;

/** As React writes an inline script's text: no `<script` or `</script` in it can close or open a tag. */
const scriptText = (text: string) =>
  text.replace(
    /(<\/|<)(s)(cript)/gi,
    (_, open: string, s: string, rest: string) => `${open}\\u00${s === "s" ? "73" : "53"}${rest}`,
  );

/**
 * Without JavaScript nothing moves React's resumed holes into place: they stay in hidden elements at the end of the
 * body. This shows them there, so a visitor without JavaScript still reads them (their fallbacks stay where they are).
 */
const NOSCRIPT_HOLES = 'div[hidden][id^="S:"]{display:contents}';

/**
 * What goes between the shell and its holes: the boot script, which the prelude cannot hold (it carries this
 * request's page and nonce), written where React writes its own, after the shell; and the holes' style without
 * JavaScript.
 */
function afterShell(boot: string, nonce: string): Uint8Array {
  return encoder.encode(
    `<script nonce="${nonce}">${scriptText(boot)}</script>` +
      `<noscript><style nonce="${nonce}">${NOSCRIPT_HOLES}</style></noscript>`,
  );
}

/** `first`'s chunks, then `rest`'s as they come: cancelling it cancels `rest` (and so aborts React's render). */
function joined(first: readonly Uint8Array[], rest: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = rest.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of first) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * The document's bytes when its holes are done (they render from data the loaders have already read): one body,
 * and with gzip the shell's precompressed member with only the rest compressed. A hole that waits on more makes it
 * a stream, the shell first, compressed as any streamed page (compress.ts).
 */
async function documentBody(
  { request, match = null }: PageRequest,
  shell: Shell,
  values: SlotValues,
  after: Uint8Array,
  holes: ReadableStream<Uint8Array> & { allReady: Promise<void> },
): Promise<{ body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>; coding?: "gzip" }> {
  if (Bun.peek.status(holes.allReady) !== "fulfilled")
    return { body: joined([bytesOf(shell.prelude, values), after], holes) };
  // React's chunks as they are: the body is copied once, from them.
  const rest = [after, ...(await Bun.readableStreamToArray(holes))];
  // Gzip only, as for prerendered pages (prerendered-responses.ts): brotli's format has no member to join. Not for
  // a page whose middleware may rewrite the body it is handed, nor a tail too large to compress in one call
  // (compress.ts streams those).
  if (!hasMiddleware(match) && pickEncoding(request.headers.get("accept-encoding"), GZIP_ONLY)) {
    const tail = Bun.concatArrayBuffers(rest, Infinity, true);
    const gzip = tail.length <= ONE_SHOT_MAX_BYTES && gzipWithTail(gzipOf(shell.prelude, values), tail);
    if (gzip) return { body: gzip, coding: "gzip" };
  }
  return { body: bytesOf(shell.prelude, values, rest) };
}

/**
 * The document, or undefined when React cannot resume the shell (an error on the way to its holes): the page is
 * then rendered whole, which shows that error as any render does. `config`: the boot script's configuration JSON.
 */
export async function resumeShell(
  page: PageRequest,
  resolved: ResolvedPage,
  shell: Shell,
  deps: PageDeps,
  config: string,
): Promise<Response | undefined> {
  const { request, url, context } = page;
  const parts = documentParts(page, resolved, deps);
  const { nonce } = parts;
  let holes: Awaited<ReturnType<typeof Resume>>;
  try {
    const render = () =>
      edgeResume!(parts.root, JSON.parse(shell.postponed) as PostponedState, {
        nonce: { script: nonce, style: nonce },
        signal: request.signal,
        onError: parts.onError,
      });
    holes = await monitorStep(deps.monitor, "render", resolved.payload.route ?? UNMATCHED_ROUTE, render);
  } catch (error) {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    // The shell and this request's tree part ways before the holes: a fault of the shell's, told once per request.
    reportError(context, error, "render", deps.capture);
    return undefined;
  }
  context.done = holes.allReady;
  const values: SlotValues = { nonce, host: url.hostname, path: url.pathname, search: "", config };
  const { body, coding } = await documentBody(page, shell, values, afterShell(parts.boot, nonce), holes);
  if (coding) parts.headers["content-encoding"] = coding;
  const response = documentResponse(body, page, resolved, parts.headers);
  if (!coding) return response;
  // After the app's headers, which would replace it: a Vary the loader set keeps Accept-Encoding beside it. A
  // change to the headers drops the length the body gave them: it is set again.
  response.headers.append("vary", "Accept-Encoding");
  if (body instanceof Uint8Array) response.headers.set("content-length", String(body.length));
  return response;
}
