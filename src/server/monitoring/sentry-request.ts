// sentry-request.ts: what a server event says about its request (data, visitor address, breadcrumb) and where its
// frames are (their source lines in the binary too).
import { join, relative, resolve } from "node:path";
import { MASKED_QUERY_NAMES } from "../../runtime/masked-query.ts";
import { _INTERNAL_filterQueryParams, addContextToFrame, defineIntegration, winterCGRequestToRequestData, type Event, type StackFrame } from "@sentry/core";

/** Kept on each request's isolation scope; turned into event data only when an event is sent. */
export interface ScopedRequest {
  request: Request;
  /**
   * The visitor's address, only with SENTRY_SEND_DEFAULT_PII. Taken when the request arrives: by the time an
   * event is processed the socket may be gone.
   */
  ip?: string;
  /** Epoch milliseconds. */
  start: number;
}

export const SCOPED_REQUEST_KEY = "briskRequest";

/** Credentials never leave the server, whatever SENTRY_SEND_DEFAULT_PII says; Sentry masks other sensitive names. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization"];

/** Sentry's filter of query values (`dataCollection.urlQueryParams`), with the names Brisk masks too. */
export const QUERY_FILTER = { deny: MASKED_QUERY_NAMES };

type QueryFilter = Parameters<typeof _INTERNAL_filterQueryParams>[1];

/** `url` with its query values filtered as Sentry filters the event's own URL. */
function filterUrlQuery(url: string, filter: QueryFilter): string {
  const start = url.indexOf("?");
  if (start === -1) return url;
  const end = url.indexOf("#", start);
  const query = url.slice(start + 1, end === -1 ? undefined : end);
  // The SDK's own filter, so a name is masked in the Referer exactly when it is in the URL (@sentry/core is pinned).
  const filtered = _INTERNAL_filterQueryParams(query, filter);
  return `${url.slice(0, start)}${filtered ? `?${filtered}` : ""}${end === -1 ? "" : url.slice(end)}`;
}

export function scopedRequestOf(event: Event): ScopedRequest | undefined {
  return event.sdkProcessingMetadata?.[SCOPED_REQUEST_KEY] as ScopedRequest | undefined;
}

/**
 * Gives each event the request of its scope, in the form Sentry's RequestData integration reads (run it
 * after this one, with `include.ip: false`: it then takes no address from headers, which a visitor can
 * write), its Referer's query filtered as the URL's is, and the visitor's address when the scope has one. Error events also start with a breadcrumb
 * for the request. Done here, at event time, so a request that causes no event costs nothing.
 */
export const scopedRequestIntegration = defineIntegration(() => ({
  name: "BriskScopedRequest",
  processEvent(event, _hint, client) {
    const scoped = scopedRequestOf(event);
    if (!scoped) return event;
    const { request, ip, start } = scoped;
    const normalizedRequest = winterCGRequestToRequestData(request);
    const headers = normalizedRequest.headers;
    for (const name of CREDENTIAL_HEADERS) delete headers?.[name];
    // The page the visitor came from can hold a secret in its query (a reset link's token) as the URL can.
    if (headers?.referer) headers.referer = filterUrlQuery(headers.referer, client.getOptions().dataCollection?.urlQueryParams ?? true);
    event.sdkProcessingMetadata = { ...event.sdkProcessingMetadata, normalizedRequest };
    if (ip) event.user = { ...event.user, ip_address: ip };
    if (!event.type) {
      // The path only: a query can hold what the RequestData integration filters from the event's URL.
      const path = new URL(request.url).pathname;
      const crumb = { type: "http", category: "request", level: "info" as const, timestamp: start / 1000, data: { method: request.method, path } };
      event.breadcrumbs = [crumb, ...(event.breadcrumbs ?? [])];
    }
    return event;
  },
}));

/** Where the binary embeds a copy of the project's own sources, under their paths in the project (build/binary.ts). */
export const EMBEDDED_SOURCES_DIR = "sources";

/** The project root when running from source; a compiled binary's frames are already relative to it. */
const SOURCE_ROOT = import.meta.dir.startsWith("/$bunfs/") ? undefined : resolve(import.meta.dir, "../../..");

/** As many lines either side of a frame's line as Sentry's own context lines give. */
const CONTEXT_LINES = 5;

/**
 * The binary's frames name the project's files relative to it (`src/app/…`), from its embedded source maps, and
 * no such file is on disk for Sentry's context lines to read (nor can its reader open the binary's embedded
 * files): this gives the project's frames their lines from the binary's embedded copy. Nothing from source.
 */
export const embeddedSourcesIntegration = defineIntegration(() => {
  const embedded = SOURCE_ROOT === undefined ? join(import.meta.dir, EMBEDDED_SOURCES_DIR) : undefined;
  // The project's own files only, so this holds at most one entry per file of the app and Brisk.
  const files = new Map<string, Promise<string[] | undefined>>();
  const linesOf = (file: string) => {
    let lines = files.get(file);
    if (!lines) files.set(file, (lines = Bun.file(join(embedded!, file)).text().then((text) => text.split("\n"), () => undefined)));
    return lines;
  };
  return {
    name: "BriskEmbeddedSources",
    async processEvent(event) {
      if (!embedded) return event;
      for (const value of event.exception?.values ?? []) {
        for (const frame of value.stacktrace?.frames ?? []) {
          if (!frame.filename || frame.context_line !== undefined || !isProjectFile(frame.filename)) continue;
          const lines = await linesOf(frame.filename);
          if (lines) addContextToFrame(lines, frame, CONTEXT_LINES);
        }
      }
      return event;
    },
  };
});

/**
 * A frame as a reader wants it: the file relative to the project (`src/app/pages/…`, from source as in the
 * binary, whose embedded source maps give these names), and in-app only for the project's own code (the
 * app's and Brisk's, wherever the app lives): never a dependency, Bun's internals or a compiled chunk.
 */
export function projectFrame(frame: StackFrame): StackFrame {
  let file = frame.filename;
  if (file && SOURCE_ROOT && file.startsWith(`${SOURCE_ROOT}/`)) file = relative(SOURCE_ROOT, file);
  return { ...frame, filename: file, in_app: file !== undefined && isProjectFile(file) };
}

/** A path relative to the project, outside its dependencies (absolute paths and `bun:` names are not). */
function isProjectFile(file: string): boolean {
  return !file.startsWith("/") && !file.startsWith("../") && !file.startsWith("node_modules/") && !file.includes(":");
}
