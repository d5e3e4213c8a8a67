// navigate.ts: client navigation, form submission, fetchers and prefetch, over one navigator state. A chunk of
// its own, loaded after hydration; it imports only types of what the entry holds, so it adds no shared chunk
// to the critical path: the entry hands those functions in.
import type { FetcherRequest, Submission } from "../navigation.ts";
import { fetchFor } from "./fetcher-requests.ts";
import { go, revalidate, type GoOptions } from "./moves.ts";
import { navigatorState, type CreateNavigateOptions } from "./navigator-state.ts";
import { prefetch } from "./prefetch.ts";
import { submit } from "./submit.ts";

export type { CreateNavigateOptions } from "./navigator-state.ts";

export interface Navigator {
  go(to: string, options: GoOptions): Promise<void>;
  submit(submission: Submission): Promise<boolean>;
  revalidate(): Promise<void>;
  fetch(request: FetcherRequest): Promise<boolean>;
  /** Resolves once the page's data has arrived. */
  prefetch(href: string): Promise<void>;
}

export function createNavigate(options: CreateNavigateOptions): Navigator {
  const n = navigatorState(options);
  return {
    go: (to, goOptions) => go(n, to, goOptions),
    submit: (submission) => submit(n, submission),
    revalidate: () => revalidate(n),
    fetch: (request) => fetchFor(n, request),
    prefetch: (href) => prefetch(n, href),
  };
}
