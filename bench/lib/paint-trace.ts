// paint-trace.ts: one cold load traced by Chromium (every process), and what its trace says about the time between
// the document's first byte and the first contentful paint: the CPU of each thread, the main thread's tasks.
import { writeFile } from "node:fs/promises";
import type { Browser, CDPSession } from "playwright-core";
import { readyToLoad, watchFirstPaint, type Throttle } from "./visitor.ts";

export interface PaintTrace {
  /** From the navigation's start (the renderer's `navigationStart`), in ms. */
  headersMs: number;
  documentEndMs: number;
  fcpMs: number;
  /** CPU ms each thread used between the document's headers and FCP, by "process/thread". */
  cpuByThread: Record<string, number>;
  /** CPU ms all of Chromium used from the navigation's start to FCP. */
  cpuFromStartMs: number;
  /** Wall ms the page renderer's main thread spent in each kind of event over the same window (they nest). */
  mainByTask: Record<string, number>;
}

const CATEGORIES = [
  "toplevel",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "loading",
  "blink",
  "v8",
  "cc",
  "viz",
  "gpu",
  "__metadata",
];

/** The main thread's events worth naming (Chromium's own names; DevTools shows them as its Performance panel does). */
const MAIN_TASKS = new Set([
  "DocumentLoader::CommitNavigation",
  "LocalWindowProxy::Initialize",
  "ParseHTML",
  "ParseAuthorStyleSheet",
  "EvaluateScript",
  "v8.compile",
  "v8.compileModule",
  "v8.evaluateModule",
  "v8.produceModuleCache",
  "FunctionCall",
  "TimerFire",
  "EventDispatch",
  "RunMicrotasks",
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "Layerize",
  "Commit",
  "MajorGC",
  "MinorGC",
  "ResourceReceivedData",
  "ResourceFinish",
  "ResourceReceiveResponse",
]);

interface TraceEvent {
  pid: number;
  tid: number;
  ph: string;
  name: string;
  cat: string;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

async function readTrace(session: CDPSession): Promise<TraceEvent[]> {
  const done = new Promise<string>((resolve) => session.once("Tracing.tracingComplete", (e) => resolve(e.stream!)));
  await session.send("Tracing.end");
  const handle = await done;
  let text = "";
  for (;;) {
    const chunk = await session.send("IO.read", { handle });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, "base64").toString() : chunk.data;
    if (chunk.eof) break;
  }
  await session.send("IO.close", { handle });
  const parsed = JSON.parse(text) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/**
 * A cold load of `url` arriving from `from`, as the visitor bench makes it, traced from the navigation until FCP.
 * The document's arrival comes from DevTools' network events, whose clock is the trace's.
 */
export async function tracedLoad(
  browser: Browser,
  from: string,
  url: string,
  throttle: Throttle | undefined,
  dump?: string,
): Promise<PaintTrace> {
  const browserSession = await browser.newBrowserCDPSession();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await readyToLoad(page, browserSession, from, throttle);
    let document: { id: string; headers?: number; end?: number } | undefined;
    cdp.on("Network.requestWillBeSent", (e) => {
      if (e.type === "Document") document ??= { id: e.requestId };
    });
    cdp.on("Network.responseReceived", (e) => {
      if (e.requestId === document?.id) document.headers = e.timestamp * 1e6;
    });
    cdp.on("Network.loadingFinished", (e) => {
      if (e.requestId === document?.id) document.end = e.timestamp * 1e6;
    });
    const painted = await watchFirstPaint(cdp);
    await browserSession.send("Tracing.start", {
      traceConfig: { includedCategories: CATEGORIES, recordMode: "recordAsMuchAsPossible" },
      transferMode: "ReturnAsStream",
    });
    await page.goto(url, { waitUntil: "load" });
    await painted();
    const fcpMs = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]!.startTime);
    const events = await readTrace(browserSession);
    if (dump) await writeFile(dump, JSON.stringify({ traceEvents: events }));
    if (document?.headers === undefined || document.end === undefined)
      throw new Error("DevTools reported no document response");
    return analyse(events, fcpMs, document.headers, document.end);
  } finally {
    await context.close();
    await browserSession.detach();
  }
}

function analyse(events: TraceEvent[], fcpMs: number, headers: number, end: number): PaintTrace {
  const fcp = events.find((e) => e.name === "firstContentfulPaint");
  if (!fcp) throw new Error("the trace has no firstContentfulPaint");
  // The page's FCP is on its own clock (from the navigation's start), the trace's event on the trace's.
  const navigationStart = { ts: fcp.ts - fcpMs * 1000 };
  const threadNames = new Map<string, string>();
  const processNames = new Map<number, string>();
  for (const e of events) {
    if (e.ph !== "M") continue;
    if (e.name === "thread_name") threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? "?");
    if (e.name === "process_name") processNames.set(e.pid, e.args?.name ?? "?");
  }
  const processOf = (pid: number) => (pid === fcp.pid ? "page renderer" : (processNames.get(pid) ?? `pid ${pid}`));
  const mainKey = [...threadNames].find(
    ([key, name]) => key.startsWith(`${fcp.pid}:`) && name === "CrRendererMain",
  )?.[0];
  const overlap = (e: TraceEvent, from = headers) =>
    Math.max(0, Math.min(e.ts + (e.dur ?? 0), fcp.ts) - Math.max(e.ts, from));
  const cpuByThread: Record<string, number> = {};
  let cpuFromStart = 0;
  const mainByTask: Record<string, number> = {};
  // A thread's top-level tasks hold others of the category (a mojo message inside a RunTask): the outermost only.
  const tasks = events.filter((e) => e.ph === "X" && e.dur && e.cat.split(",").includes("toplevel"));
  tasks.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const busyUntil = new Map<string, number>();
  for (const e of tasks) {
    const key = `${e.pid}:${e.tid}`;
    if ((busyUntil.get(key) ?? -1) >= e.ts + e.dur!) continue;
    busyUntil.set(key, e.ts + e.dur!);
    const cpu = (e.tdur ?? e.dur!) / e.dur!;
    cpuFromStart += (cpu * overlap(e, navigationStart.ts)) / 1000;
    const within = overlap(e);
    if (within <= 0) continue;
    const label = `${processOf(e.pid)}/${threadNames.get(key) ?? `tid ${e.tid}`}`;
    cpuByThread[label] = (cpuByThread[label] ?? 0) + (cpu * within) / 1000;
    if (key === mainKey) mainByTask["(all tasks, wall)"] = (mainByTask["(all tasks, wall)"] ?? 0) + within / 1000;
  }
  for (const e of events) {
    if (e.ph !== "X" || `${e.pid}:${e.tid}` !== mainKey || !MAIN_TASKS.has(e.name)) continue;
    mainByTask[e.name] = (mainByTask[e.name] ?? 0) + overlap(e) / 1000;
  }
  const from = (ts: number) => (ts - navigationStart.ts) / 1000;
  return {
    headersMs: from(headers),
    documentEndMs: from(end),
    fcpMs: from(fcp.ts),
    cpuByThread,
    cpuFromStartMs: cpuFromStart,
    mainByTask,
  };
}
