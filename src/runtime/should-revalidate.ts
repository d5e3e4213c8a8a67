// should-revalidate.ts: what a route's `shouldRevalidate` is asked, React Router's arguments: whether its
// loader runs again for the page shown next, or the level keeps the data it shows.

export interface ShouldRevalidateArgs {
  /** The page showing, and all of its path's params. */
  currentUrl: URL;
  currentParams: Record<string, string>;
  /** The page about to show, and all of its path's params. */
  nextUrl: URL;
  nextParams: Record<string, string>;
  /** Set when a form caused this: `"POST"` for an action, `"GET"` for a `<Form method="get">`. */
  formMethod?: "GET" | "POST";
  /** The form's action, path and search. */
  formAction?: string;
  formEncType?: string;
  formData?: FormData;
  /** The action's status, when it answered with data (a redirect has none). */
  actionStatus?: number;
  /** What the action returned, when it answered with data. */
  actionResult?: unknown;
  /**
   * What Brisk would do without this function: load again after an action (unless it answered 4xx or 5xx)
   * or a revalidation, when the URL is the same, when the search changed, or when this level's params did.
   */
  defaultShouldRevalidate: boolean;
}

export type ShouldRevalidate = (args: ShouldRevalidateArgs) => boolean;
