// client-weight.ts: the JavaScript a first visit to a page downloads, raw, gzip -9 and brotli.
// Critical path: the module scripts and modulepreloads in the HTML and the modules its boot script imports
// once the page has painted (what hydration needs), plus every static import they pull in. After hydration: every other script Chromium fetched for the page until the network went
// quiet (the navigation chunk, Sentry's chunk). Without Chromium, the build's Sentry chunk stands in.
import { brotliCompressSync, constants } from "node:zlib";
import { launchBrowser } from "brisk/test";

export interface Weight {
  files: string[];
  raw: number;
  gzip: number;
  brotli: number;
}

export interface ClientWeight {
  critical: Weight;
  /** What the page fetched after hydrating; undefined when it fetched nothing more. */
  after?: Weight;
  total: Weight;
  /** How the after-hydration files were found. */
  afterFrom: string;
  /** Whether Sentry's code is among the files counted. */
  sentryCounted: boolean;
  /** The tracing bundle, fetched only with SENTRY_TRACES_SAMPLE_RATE set. */
  tracing?: Weight;
}

const transpiler = new Bun.Transpiler({ loader: "js" });

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/** The modules Brisk's boot script imports once the page has painted (render.tsx): `…})(["/assets/…"])`. */
const AFTER_PAINT = /\}\)\((\["[^\]]*\])\)<\/script>/;

/** Module scripts, modulepreloads and the modules the boot script imports, in document order. */
export function htmlModules(html: string): string[] {
  const urls: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const isModule = tag.startsWith("<script") && attr(tag, "type") === "module";
    const isPreload = tag.startsWith("<link") && attr(tag, "rel") === "modulepreload";
    const url = isModule ? attr(tag, "src") : isPreload ? attr(tag, "href") : undefined;
    if (url && !urls.includes(url)) urls.push(url);
  }
  const booted = AFTER_PAINT.exec(html)?.[1];
  for (const url of booted ? (JSON.parse(booted) as string[]) : []) if (!urls.includes(url)) urls.push(url);
  return urls;
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
const hasSentry = (bytes: Bytes) => SENTRY_MARKERS.some((m) => new TextDecoder().decode(bytes).includes(m));

/** Every script a real first visit fetches, in Chromium, until nothing has been fetched for 1 s. */
async function scriptsFetched(origin: string, path: string): Promise<string[]> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    let last = performance.now();
    page.on("request", (r) => {
      last = performance.now();
      const url = new URL(r.url());
      if (url.origin === origin && url.pathname.endsWith(".js")) scripts.add(url.pathname);
    });
    await page.goto(origin + path, { waitUntil: "load" });
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    while (performance.now() - last < 1_000) await Bun.sleep(100);
    return [...scripts];
  } finally {
    await browser.close();
  }
}

/** Without Chromium: the build's chunk that carries Sentry's code, as the one file fetched later. */
async function sentryChunk(allJs: string[], critical: Map<string, Bytes>, get: Fetcher): Promise<string | undefined> {
  for (const url of allJs) if (!critical.has(url) && hasSentry(await get(url))) return url;
  return undefined;
}

function fetcher(origin: string): Fetcher {
  return async (url) => {
    const res = await fetch(origin + url, { headers: { "accept-encoding": "identity" } });
    if (!res.ok) throw new Error(`client weight: ${url} answered ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  };
}

/** `urls` and everything they import statically, weighed. */
export async function weighFiles(origin: string, urls: string[]): Promise<Weight> {
  return weigh(await closure(urls, origin, fetcher(origin)));
}

export async function measureClientWeight(origin: string, html: string, allJs: string[]): Promise<ClientWeight> {
  const get = fetcher(origin);
  const critical = await closure(htmlModules(html), origin, get);
  let later: string[];
  let afterFrom: string;
  try {
    later = await scriptsFetched(origin, "/");
    afterFrom = "every other script Chromium fetched for / until the network was quiet for 1 s";
  } catch (error) {
    const chunk = await sentryChunk(allJs, critical, get);
    later = chunk ? [chunk] : [];
    afterFrom = `Chromium did not run (${(error as Error).message.split("\n")[0]}); the build's Sentry chunk only`;
  }
  const all = await closure(later, origin, get, new Map(critical));
  const after = new Map([...all].filter(([url]) => !critical.has(url)));
  return {
    critical: weigh(critical),
    after: after.size ? weigh(after) : undefined,
    total: weigh(all),
    afterFrom,
    sentryCounted: [...all.values()].some(hasSentry),
  };
}
