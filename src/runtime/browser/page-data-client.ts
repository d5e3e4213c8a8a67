// page-data-client.ts: fetches a page's data for client navigation and reads its streamed lines.
import { received } from "./received.ts";
import {
  BUILD_HEADER,
  KEEP_ALL,
  KEEP_PARAM,
  PAGE_DATA_PREFIX,
  PAGE_DATA_TYPE,
  PAGE_DATA_VERSION,
  type DeferredSettlement,
  type PagePayload,
} from "../page-payload.ts";

/**
 * The response is not page data this client reads: a new deploy's, a proxy's HTML, or what a route without a page
 * returned. The caller loads the page whole, or reads a route without a page's `response` itself.
 */
export class NotPageData extends Error {
  constructor(
    reason: string,
    /** The response's status, when there was one. */
    readonly status?: number,
    /** The response itself, unread, when it was not page data: a route without a page answers as it likes. */
    readonly response?: Response,
  ) {
    super(`not page data: ${reason}`);
    this.name = "NotPageData";
  }
}

/** A line of page data: JSON (an object), or devalue's form (an array) for values JSON would not keep. */
function parseLine<T>(line: string): T | Promise<T> {
  return received<T>(JSON.parse(line));
}

export interface FetchedPage {
  /** The response's HTTP status: 200, an outcome's, or an action's (422 for a failed validation). */
  status: number;
  payload: PagePayload;
  settlements: AsyncIterable<DeferredSettlement>;
}

async function* lines(reader: ReadableStreamDefaultReader<string>, rest: string): AsyncGenerator<string> {
  let buffer = rest;
  for (;;) {
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line) yield line;
    }
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
  }
  if (buffer) yield buffer;
}

function isPayload(value: unknown, buildId: string): value is PagePayload {
  const p = value as PagePayload | null;
  return (
    typeof p === "object" &&
    p !== null &&
    p.v === PAGE_DATA_VERSION &&
    p.buildId === buildId &&
    typeof p.path === "string" &&
    typeof p.search === "string" &&
    Array.isArray(p.levels) &&
    typeof p.assets === "object"
  );
}

/**
 * The page data of `target`, without the loaders of the first `keep` levels, which the client shows already
 * (`KEEP_ALL`: none, after a post from another page).
 */
export function pageDataUrl(target: URL, keep: number | typeof KEEP_ALL = 0): string {
  const search =
    keep === KEEP_ALL || keep > 0 ? `${target.search ? `${target.search}&` : "?"}${KEEP_PARAM}=${keep}` : target.search;
  return `${PAGE_DATA_PREFIX}${target.pathname}${search}`;
}

/**
 * Network failures reject as they are (TypeError); anything unreadable rejects as NotPageData. With a
 * `body` it is a form post: the page data answers with the action's result and the page after it.
 */
export async function fetchPageData(
  target: URL,
  buildId: string,
  signal: AbortSignal,
  { body, keep }: { body?: BodyInit; keep?: number | typeof KEEP_ALL } = {},
): Promise<FetchedPage> {
  const headers: Record<string, string> = { accept: PAGE_DATA_TYPE };
  if (body) headers[BUILD_HEADER] = buildId;
  const init: RequestInit = { headers, signal, credentials: "same-origin" };
  if (body) Object.assign(init, { method: "POST", body });
  const response = await fetch(pageDataUrl(target, keep), init);
  if (!response.headers.get("content-type")?.startsWith(PAGE_DATA_TYPE) || !response.body) {
    throw new NotPageData(
      `unexpected ${response.status} ${response.headers.get("content-type") ?? "without a type"}`,
      response.status,
      response,
    );
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const it = lines(reader, "");
  const first = await it.next();
  let payload: unknown;
  try {
    payload = first.done ? undefined : await parseLine(first.value);
  } catch {
    throw new NotPageData("page data is not JSON, or its codec could not load");
  }
  if (!isPayload(payload, buildId)) throw new NotPageData("page data from another build or version");
  async function* settlements(): AsyncGenerator<DeferredSettlement> {
    for await (const line of it) yield parseLine<DeferredSettlement>(line);
  }
  return { status: response.status, payload, settlements: settlements() };
}
