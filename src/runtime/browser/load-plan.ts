// load-plan.ts: which levels of the next page load and which keep the data the page shows: React Router's
// rules, then each route's shouldRevalidate. Pure: the page shown, the target and the cause in, the plan out.
import type { NavState } from "../navigation.ts";
import type { PagePayload } from "../page-payload.ts";
import type { MatchedLevel, RouteTree } from "../route-tree.ts";
import type { ShouldRevalidateArgs } from "../should-revalidate.ts";

/** A form that caused the load, as shouldRevalidate is told of it. */
export interface SubmittedForm {
  method: "GET" | "POST";
  /** Path and search. */
  action: string;
  encType: string;
  data: FormData;
}

/** Why the next page loads. */
export type LoadCause =
  /** A link, back or forward, a redirect on the way, a GET form (`form`). */
  | { kind: "navigation"; form?: SubmittedForm }
  /** The page's data again, asked for by the app (`useRevalidate`) or after a change made another way. */
  | { kind: "revalidation" }
  /** After an action: its response's status and value when it answered with data, neither when it redirected. */
  | { kind: "action"; form: SubmittedForm; status?: number; result?: unknown };

export interface LoadPlan {
  /** Per level of the target, outermost first: true when it keeps what the page shows. */
  keep: boolean[];
  /** The leading kept levels, never the innermost: the server does not run their loaders (KEEP_PARAM). */
  keptLevels: number;
}

/** How many levels of a page show their own data: none when the app's page stands for the whole page. */
function levelsShown({ error, outcome, boundary }: PagePayload): number {
  if ((error || outcome) && !boundary) return 0;
  return boundary?.depth ?? Infinity;
}

/** Whether every streamed value of a level's data has arrived: one still coming cannot be kept. */
function settled(data: unknown): boolean {
  if (data === null || typeof data !== "object") return true;
  return Object.values(data).every(
    (value: { then?: unknown; status?: string } | null) =>
      typeof value?.then !== "function" || value.status === "fulfilled",
  );
}

const sameParams = (a: MatchedLevel, b: MatchedLevel) => JSON.stringify(a.params) === JSON.stringify(b.params);

/** React Router's default for a level both pages have. */
function defaultRevalidate(cause: LoadCause, current: URL, next: URL, was: MatchedLevel, level: MatchedLevel): boolean {
  if (cause.kind === "action") return !(cause.status !== undefined && cause.status >= 400);
  if (cause.kind === "revalidation") return true;
  if (current.pathname + current.search === next.pathname + next.search) return true;
  if (current.search !== next.search) return true;
  return !sameParams(was, level);
}

function formArgs(cause: LoadCause): Partial<ShouldRevalidateArgs> {
  const form = cause.kind === "revalidation" ? undefined : cause.form;
  if (!form) return {};
  const args: Partial<ShouldRevalidateArgs> = {
    formMethod: form.method,
    formAction: form.action,
    formEncType: form.encType,
    formData: form.data,
  };
  if (cause.kind === "action" && cause.status !== undefined)
    Object.assign(args, { actionStatus: cause.status, actionResult: cause.result });
  return args;
}

/** The plan for showing `target` after the page `shown`, for `cause`. */
export function planLoad(shown: NavState, target: URL, tree: RouteTree, cause: LoadCause): LoadPlan {
  const next = tree.match(target.pathname);
  const current = tree.match(shown.path);
  const currentUrl = new URL(shown.path + (shown.search ? `?${shown.search}` : ""), target);
  const shownLevels = levelsShown(shown.page.payload);
  const base = {
    currentUrl,
    currentParams: current?.params ?? {},
    nextUrl: target,
    nextParams: next?.params ?? {},
    ...formArgs(cause),
  };
  const keep = (next?.levels ?? []).map((level, depth) => {
    const was = current?.levels[depth];
    const { id, route } = level.node;
    // A new route, or one whose data the page does not show (whole), always loads.
    if (
      !was ||
      was.node !== level.node ||
      depth >= shownLevels ||
      !shown.page.data.has(id) ||
      !settled(shown.page.data.get(id))
    )
      return false;
    const defaultShouldRevalidate = defaultRevalidate(cause, currentUrl, target, was, level);
    return !(route.shouldRevalidate?.({ ...base, defaultShouldRevalidate }) ?? defaultShouldRevalidate);
  });
  const firstLoaded = keep.findIndex((kept) => !kept);
  return { keep, keptLevels: Math.min(firstLoaded < 0 ? keep.length : firstLoaded, Math.max(keep.length - 1, 0)) };
}

/**
 * The payload with the levels the plan keeps, past the ones the server was told of, marked kept: they show the
 * data they had, and what the server sent for them is left unread but for the parse of their search, which is
 * new. Levels that show no data of their own (below a fallback) take the payload's.
 */
export function holdOver(payload: PagePayload, { keep }: LoadPlan): PagePayload {
  const shown = levelsShown(payload);
  if (!payload.levels.some(({ kept }, depth) => keep[depth] && !kept && depth < shown)) return payload;
  return {
    ...payload,
    levels: payload.levels.map((level, depth) =>
      keep[depth] && !level.kept && depth < shown ? { id: level.id, kept: true, query: level.query } : level,
    ),
  };
}
