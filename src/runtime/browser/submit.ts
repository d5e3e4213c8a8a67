// submit.ts: a <Form>'s submission on the client, as the browser would send it without JavaScript: a GET
// form navigates to its URL with its fields as the search; a POST runs the route's action through page data
// and shows the page after it (a redirect's in a new history entry, as after a 303).
import type { Submission } from "../navigation.ts";
import { planLoad, type SubmittedForm } from "./load-plan.ts";
import { go, revalidate, show } from "./moves.ts";
import { begin, isCurrent, settle, type NavigatorState } from "./navigator-state.ts";
import { fetchPageData, NotPageData } from "./page-data-client.ts";
import { clearPrefetched } from "./prefetch.ts";

/** A form as shouldRevalidate is told of it. */
export function submittedForm(
  method: SubmittedForm["method"],
  target: URL,
  body: FormData | URLSearchParams,
  data: FormData,
): SubmittedForm {
  const encType = body instanceof FormData ? "multipart/form-data" : "application/x-www-form-urlencoded";
  return { method, action: target.pathname + target.search, encType, data };
}

/** Resolves once the page shows the response: true when the action succeeded (below 400). */
export async function submit(n: NavigatorState, submission: Submission): Promise<boolean> {
  const { body, formData, replace } = submission;
  const target = new URL(submission.action, location.href);
  if (target.origin !== location.origin) return (submission.fallback(), false);
  if (submission.method === "get") {
    // As the browser sends a GET form: its fields are the whole search.
    target.search = new URLSearchParams(body as URLSearchParams).toString();
    const form = submittedForm("GET", target, body, formData);
    await go(n, target.href, { replace, cause: { kind: "navigation", form } });
    return true;
  }
  clearPrefetched(n);
  const form = submittedForm("POST", target, body, formData);
  const controller = begin(n, { kind: "submitting", to: target.href, formData });
  try {
    const fetched = await fetchPageData(target, n.buildId, controller.signal, { body });
    const { outcome, actionData } = fetched.payload;
    // Another page, in a new history entry (Back returns to the form's page); this page again, in its own.
    if (outcome?.kind === "redirect")
      return (await go(n, new URL(outcome.location!, target).href, { replace, cause: { kind: "action", form } }), true);
    const cause = { kind: "action", form, status: fetched.status, result: actionData } as const;
    // The action's page with the data it returned: a new entry only if it is another page.
    const here = isCurrent(target);
    const plan = planLoad(n.store.getState(), target, n.tree, cause);
    await show(
      n,
      fetched,
      target,
      plan,
      { history: replace || here ? "replace" : "push", scroll: !here },
      cause,
      controller.signal,
    );
    return fetched.status < 400;
  } catch (error) {
    if (controller.signal.aborted) return false;
    settle(n);
    // Refused before the action ran (another build, a body the server would not read): the browser posts
    // the form itself, and the document it gets says why. A response from elsewhere: the page, loaded whole.
    if (error instanceof NotPageData) {
      const status = error.status ?? 0;
      // A route without a page answered with what its action returned (JSON, say): the action did its
      // work, and the page shows what it changed.
      if (status >= 200 && status < 300) return (await revalidate(n, { kind: "action", form, status }), true);
      if (status >= 400 && status < 500) submission.fallback();
      else location.assign(target.href);
      return false;
    }
    n.store.commit({
      ...n.store.getState(),
      failedNavigation: { to: target.href, retry: () => void submit(n, submission) },
    });
    return false;
  }
}
