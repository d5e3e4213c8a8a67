// client-weight.ts: the JavaScript a first visit to a page downloads, raw, gzip -9 and brotli.
// Critical path: the module scripts and modulepreloads in the HTML, plus every static import they
// pull in. With Sentry: that plus the Sentry chunk the entry imports dynamically after hydration.
import { brotliCompressSync, constants } from "node:zlib";

export interface Weight {
  files: string[];
  raw: number;
  gzip: number;
  brotli: number;
}

export interface ClientWeight {
  critical: Weight;
  /** Undefined when the build has no Sentry chunk. */
  sentry?: Weight;
  total: Weight;
  /** How the Sentry chunk was found, or why it was not. */
  sentryFrom: string;
}

const transpiler = new Bun.Transpiler({ loader: "js" });

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/** Module scripts and modulepreloads, in document order. */
export function htmlModules(html: string): string[] {
  const urls: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const isModule = tag.startsWith("<script") && attr(tag, "type") === "module";
    const isPreload = tag.startsWith("<link") && attr(tag, "rel") === "modulepreload";
    const url = isModule ? attr(tag, "src") : isPreload ? attr(tag, "href") : undefined;
    if (url && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

/** The Sentry module the page config names (`sentryModule` in `window.__BRISK__`), if it does. */
export function configuredSentryModule(html: string): string | undefined {
  const boot = /window\.__BRISK__=(\{.*?\});B\.settle/s.exec(html)?.[1];
  if (!boot) return undefined;
  try {
    return (JSON.parse(boot) as { config?: { sentryModule?: string } }).config?.sentryModule;
  } catch {
    return undefined;
  }
}

type Bytes = Uint8Array<ArrayBuffer>;
type Fetcher = (url: string) => Promise<Bytes>;

/** `roots` and everything they import statically, each file once. */
async function closure(roots: string[], origin: string, get: Fetcher, seen = new Map<string, Bytes>()) {
  const queue = [...roots];
  for (let url = queue.shift(); url; url = queue.shift()) {
    if (seen.has(url)) continue;
    const bytes = await get(url);
    seen.set(url, bytes);
    for (const imp of transpiler.scanImports(new TextDecoder().decode(bytes))) {
      if (imp.kind === "import-statement") queue.push(new URL(imp.path, origin + url).pathname);
    }
  }
  return seen;
}

export function weigh(files: Map<string, Bytes>): Weight {
  const w: Weight = { files: [...files.keys()], raw: 0, gzip: 0, brotli: 0 };
  for (const bytes of files.values()) {
    // Per file, as each travels as its own response.
    w.raw += bytes.byteLength;
    w.gzip += Bun.gzipSync(bytes, { level: 9 }).byteLength;
    w.brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
  }
  return w;
}

const SENTRY_MARKERS = ["__SENTRY__", "sentry.javascript"];

export async function measureClientWeight(origin: string, html: string, allJs: string[]): Promise<ClientWeight> {
  const get: Fetcher = async (url) => {
    const res = await fetch(origin + url, { headers: { "accept-encoding": "identity" } });
    if (!res.ok) throw new Error(`client weight: ${url} answered ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  };
  const critical = await closure(htmlModules(html), origin, get);
  let sentryRoot = configuredSentryModule(html);
  let sentryFrom = sentryRoot ? `page config sentryModule (${sentryRoot})` : "";
  if (!sentryRoot) {
    // No config entry: the chunk of the build that carries Sentry's own code.
    for (const url of allJs) {
      if (critical.has(url)) continue;
      const text = new TextDecoder().decode(await get(url));
      if (SENTRY_MARKERS.some((m) => text.includes(m))) {
        sentryRoot = url;
        sentryFrom = `the build's chunk with Sentry code (${url})`;
        break;
      }
    }
  }
  if (!sentryRoot) {
    const inCritical = [...critical.values()].some((b) => SENTRY_MARKERS.some((m) => new TextDecoder().decode(b).includes(m)));
    sentryFrom = inCritical ? "Sentry code is in the critical path" : "no Sentry chunk in the client build";
  }
  const all = sentryRoot ? await closure([sentryRoot], origin, get, new Map(critical)) : critical;
  const sentryOnly = new Map([...all].filter(([url]) => !critical.has(url)));
  return {
    critical: weigh(critical),
    sentry: sentryOnly.size ? weigh(sentryOnly) : undefined,
    total: weigh(all),
    sentryFrom,
  };
}
