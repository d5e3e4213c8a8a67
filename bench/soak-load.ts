// soak-load.ts: the soak's traffic: concurrent keep-alive fetch loops over every page of the bench app and the
// tunnel, some streamed pages abandoned mid-stream, every answer counted by target and status.
import { SITE } from "./app/site.ts";
import { browserEnvelope } from "./lib/envelope.ts";

export interface Target {
  /** How the report names it: the path without its query, or `POST /monitoring`. */
  name: string;
  path: string;
  expected: readonly number[];
  /** Its body keeps streaming after the shell: a candidate for a client abort. */
  streamed: boolean;
  tunnel: boolean;
  /** Relative share of the picks. */
  weight: number;
}

/** The tunnel answers 200 while the upstream is up, 429 past its in-flight cap, 502 when down, 504 when slow. */
export const TUNNEL_STATUSES = [200, 429, 502, 504] as const;

/** "/" and every page the home page lists, with the status its entry in bench/app/site.ts gives. */
export function soakTargets(): Target[] {
  const pages = [{ href: "/", status: 200 }, ...SITE].map(({ href, status, ...page }) => ({
    name: href,
    path: href,
    expected: [status],
    streamed: "streamed" in page && page.streamed === true,
    tunnel: false,
    weight: 1,
  }));
  const tunnel = {
    name: "POST /monitoring",
    path: "/monitoring",
    expected: TUNNEL_STATUSES,
    streamed: false,
    tunnel: true,
    weight: 3,
  };
  return [...pages, tunnel];
}

export interface LoadCounts {
  /** target name → status (or `error: <name>` when fetch itself failed) → count. */
  statuses: Map<string, Map<string, number>>;
  /** Streamed requests, and those the client abandoned after the first chunk, by target name. */
  streamed: Map<string, number>;
  aborted: Map<string, number>;
  /** event_id of every envelope the tunnel answered 2xx for: each must reach the ingest. */
  accepted: Set<string>;
  requests: number;
}

export function emptyCounts(): LoadCounts {
  return { statuses: new Map(), streamed: new Map(), aborted: new Map(), accepted: new Set(), requests: 0 };
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function record(counts: LoadCounts, target: Target, status: number | string): void {
  counts.requests++;
  let byStatus = counts.statuses.get(target.name);
  if (!byStatus) counts.statuses.set(target.name, (byStatus = new Map()));
  bump(byStatus, String(status));
}

export interface LoadOptions {
  origin: string;
  /** The configured DSN, as the browser SDK writes it in the envelope header. */
  dsn: string;
  concurrency: number;
  /** performance.now() at which the loops stop starting requests. */
  until: number;
  /** Share of streamed requests abandoned after their first chunk. */
  abortShare: number;
  /** For the pages; GET when omitted. */
  method?: "GET" | "HEAD";
}

/** A fresh event_id in the browser-sized envelope, so each arrival can be told apart. */
function envelopeMaker(dsn: string): (eventId: string) => string {
  const template = browserEnvelope(dsn);
  const templateId = (JSON.parse(template.slice(0, template.indexOf("\n"))) as { event_id: string }).event_id;
  return (eventId) => template.replaceAll(templateId, eventId);
}

const BROWSER_HEADERS = {
  "content-type": "text/plain;charset=UTF-8",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36",
  cookie: "session=soak",
};

async function postEnvelope(
  options: LoadOptions,
  target: Target,
  counts: LoadCounts,
  envelope: (id: string) => string,
) {
  const id = crypto.randomUUID().replaceAll("-", "");
  const res = await fetch(options.origin + target.path, {
    method: "POST",
    body: envelope(id),
    headers: { ...BROWSER_HEADERS, origin: options.origin },
  });
  await res.arrayBuffer();
  record(counts, target, res.status);
  if (res.ok) counts.accepted.add(id);
}

async function getPage(options: LoadOptions, target: Target, counts: LoadCounts) {
  const abort = target.streamed && Math.random() < options.abortShare;
  const controller = new AbortController();
  const res = await fetch(options.origin + target.path, {
    method: options.method,
    redirect: "manual",
    signal: controller.signal,
  });
  record(counts, target, res.status);
  if (target.streamed) bump(counts.streamed, target.name);
  if (!abort) {
    await res.arrayBuffer();
    return;
  }
  // Mid-stream: the shell has arrived, the streamed section has not. The connection is dropped.
  const reader = res.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.cancel().catch(() => {});
  bump(counts.aborted, target.name);
}

/** Runs `concurrency` loops until `until`; each picks a weighted random target and counts the answer. */
export async function runLoad(options: LoadOptions, targets: Target[], counts: LoadCounts): Promise<void> {
  const envelope = envelopeMaker(options.dsn);
  const picks = targets.flatMap((t) => Array<Target>(t.weight).fill(t));
  const loop = async () => {
    while (performance.now() < options.until) {
      const target = picks[Math.floor(Math.random() * picks.length)]!;
      try {
        if (target.tunnel) await postEnvelope(options, target, counts, envelope);
        else await getPage(options, target, counts);
      } catch (error) {
        // Our own abort ends a read we no longer wait for; anything else is a failed request.
        if ((error as Error).name !== "AbortError") record(counts, target, `error: ${(error as Error).name}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
}
