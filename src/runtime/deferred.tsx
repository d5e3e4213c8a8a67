// deferred.tsx: loader values that stream after the shell, on both sides of the wire.
import { Suspense, use } from "react";
import { outcomeFromInfo } from "./outcome.ts";
import type { DeferredSettlement, PageError } from "./page-payload.ts";
import { useAppRuntime } from "./app-context.ts";

type Tracked<T> = Promise<T> & { status?: "pending" | "fulfilled" | "rejected"; value?: T; reason?: unknown };

/** A promise React's `use()` can read synchronously once settled, so hydration does not suspend again. */
function tracked<T>(): { promise: Tracked<T>; resolve(v: T): void; reject(e: unknown): void } {
  const { promise, resolve, reject } = Promise.withResolvers<T>();
  const p = promise as Tracked<T>;
  p.status = "pending";
  // The page may never read a value; an unread rejection must not become an unhandled one.
  p.catch(() => {});
  return {
    promise: p,
    resolve(v) {
      if (p.status !== "pending") return;
      p.status = "fulfilled";
      p.value = v;
      resolve(v);
    },
    reject(e) {
      if (p.status !== "pending") return;
      p.status = "rejected";
      p.reason = e;
      reject(e);
    },
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

/**
 * Splits loader data into what is ready now and the top-level promises that stream later. The ready part is
 * made with Object.fromEntries, which defines each key: assigned, a `__proto__` key would set the prototype.
 */
export function splitDeferred(data: unknown): { ready: unknown; deferred: Map<string, PromiseLike<unknown>> } {
  const deferred = new Map<string, PromiseLike<unknown>>();
  if (data === null || typeof data !== "object" || Array.isArray(data)) return { ready: data ?? null, deferred };
  const ready: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(data)) {
    if (isThenable(value)) deferred.set(key, value);
    else ready.push([key, value]);
  }
  return { ready: Object.fromEntries(ready), deferred };
}

/**
 * Loader data as components read it, with a promise under each streamed key, and the settle() that fulfils
 * one: the server settles them as its loader's promises do, the client as page-data lines or inline scripts
 * arrive, so both sides render the same values and throw the same errors. Unknown or repeated keys are ignored.
 */
function openSettlements(ready: unknown, keys: readonly string[]) {
  const pending = new Map(
    keys.map((key) => [key, { value: tracked<unknown>(), settlement: tracked<DeferredSettlement>() }] as const),
  );
  // Defined, not assigned, like splitDeferred's keys: any key stays a key.
  const data = keys.length
    ? Object.fromEntries([
        ...Object.entries(ready as object),
        ...[...pending].map(([key, p]) => [key, p.value.promise]),
      ])
    : ready;
  return {
    data,
    /** Each streamed value's settlement, in key order: what the inline scripts and page-data lines carry. */
    settlements: [...pending].map(([key, p]) => [key, p.settlement.promise as Promise<DeferredSettlement>] as const),
    settle(s: DeferredSettlement) {
      const p = pending.get(s.key);
      if (!p) return;
      pending.delete(s.key);
      p.settlement.resolve(s);
      applySettlement(s, p.value);
    },
    /** The keys not settled yet. */
    pending: () => [...pending.keys()],
  };
}

/** A level's data as it arrives: what is ready, and the keys still streaming. */
export interface OpeningLevel {
  id: string;
  ready: unknown;
  deferred: readonly string[];
}

/** openSettlements for every level of a page: each settlement goes to its route's level. */
export function openPage(levels: readonly OpeningLevel[]) {
  const opened = levels.map((level) => [level.id, openSettlements(level.ready, level.deferred)] as const);
  const byId = new Map(opened);
  return {
    data: new Map(opened.map(([id, level]) => [id, level.data])),
    /** Keyed by route and key (settlementRoute), unique on the page. */
    settlements: opened.flatMap(([id, level]) =>
      level.settlements.map(([key, settlement]) => [`${id}\n${key}`, settlement] as const),
    ),
    settle: (s: DeferredSettlement) => byId.get(s.route)?.settle(s),
    pending: () => opened.flatMap(([route, level]) => level.pending().map((key) => ({ route, key }))),
  };
}

/** The route of one of openPage's settlements, from its key: a route id has no line break. */
export function settlementRoute(key: string): string {
  return key.slice(0, key.indexOf("\n"));
}

/** The error a page sees when a streamed value failed: it keeps the server's digest and side. */
function serverError(error: PageError): Error & { digest?: string } {
  const fallback = error.side === "server" ? "A server-side exception occurred" : "A streamed value never arrived";
  return Object.assign(new Error(error.message ?? fallback), {
    // Only the server mints digests; a value lost on the way has none to show or tag.
    digest: error.side === "server" ? error.digest : undefined,
    side: error.side,
    serverStack: error.stack,
  });
}

/** Turns a settlement back into the value or the rejection the page reads. */
function applySettlement(s: DeferredSettlement, target: { resolve(v: unknown): void; reject(e: unknown): void }) {
  if (s.error) target.reject(serverError(s.error));
  else if (s.outcome) target.reject(outcomeFromInfo(s.outcome));
  else target.resolve(s.value);
}

/**
 * The global array each streamed value's inline script pushes its settlement on, as the wire carries it; the
 * client entry reads what is there and, from then on, each one pushed (browser/boot.ts). Here, not in
 * page-payload.ts: the entry importing a value from there would take all of that module's into the entry.
 */
export const SETTLED_QUEUE = "__BRISK_Q";

/**
 * What a streamed value's inline script runs: it queues the settlement, as the wire carries it, on a queue that
 * whichever comes first makes, this script or the client entry (which then reads each one pushed). A value
 * settled before the shell has its script in the shell, ahead of the boot script and the entry. Only an array
 * is the queue: an element with the global's id or name (sanitized user HTML keeps ids) is `self.__BRISK_Q`
 * until an assignment shadows it.
 */
function settleScript(sent: string): string {
  const queue = `self.${SETTLED_QUEUE}`;
  return `(Array.isArray(${queue})?${queue}:${queue}=[]).push(${sent})`;
}

function DeferredScript({ settlement, nonce }: { settlement: Promise<DeferredSettlement>; nonce?: string }) {
  const s = use(settlement);
  const { scriptValue } = useAppRuntime();
  // Rendered on the server when the value settles. The browser hydrates that script as it is: a script's text
  // is never run again, and writing it needs the server's codec.
  return (
    <>
      {s.outcome && s.outcome.kind !== "redirect" ? <meta name="robots" content="noindex" /> : null}
      <script
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: scriptValue ? settleScript(scriptValue(s)) : "" }}
      />
    </>
  );
}

/**
 * One small Suspense boundary per streamed value, each flushing an inline script when it settles: elements for the
 * page's content, not a component of their own (one less on every page, most of which stream nothing).
 */
export function deferredScripts(
  settlements: ReadonlyArray<readonly [string, Promise<DeferredSettlement>]>,
  nonce?: string,
) {
  return settlements.map(([key, settlement]) => (
    <Suspense key={key} fallback={null}>
      <DeferredScript settlement={settlement} nonce={nonce} />
    </Suspense>
  ));
}
