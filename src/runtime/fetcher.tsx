// fetcher.tsx: a form (or a call) that posts to a route's action, or loads a route's data, without moving the
// page: a like button, a newsletter sign-up, a search box's suggestions. Each fetcher has its own state, so
// several can be in flight at once, and a page can show the outcome it expects while the server works.
import { useCallback, useEffect, useMemo, useRef, useState, type FormHTMLAttributes } from "react";
import type { ActionValue } from "./action-data.ts";
import { usePostHandler } from "./form-post.ts";
import { useNavigation } from "./navigation.ts";

export type FetcherState = "idle" | "submitting" | "loading";

export interface FetcherFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, "method" | "action"> {
  /** The route whose action it posts to. */
  action: string;
}

export interface Fetcher<T> {
  /** `submitting` while its action runs, `loading` while a load runs, else `idle`. */
  state: FetcherState;
  /** What the last action returned (or the last load's data), once it has arrived. */
  data: T | undefined;
  /** The fields being submitted, while they are: render the result they should have before it is confirmed. */
  formData: FormData | undefined;
  /**
   * A real `<form method="post">`: without JavaScript the browser posts it and shows the page it gets back,
   * as for `<Form>`. With JavaScript it posts through the fetcher and the page stays.
   */
  Form(props: FetcherFormProps): React.JSX.Element;
  /** Posts these fields to the action at `action`. */
  submit(fields: FormData | URLSearchParams | Record<string, string>, options: { action: string }): Promise<void>;
  /** Loads the data of the page at `href` (its innermost route's). */
  load(href: string): Promise<void>;
}

interface Snapshot<T> {
  state: FetcherState;
  data: T | undefined;
  formData: FormData | undefined;
}

function asFormData(fields: FormData | URLSearchParams | Record<string, string>): FormData {
  if (fields instanceof FormData) return fields;
  const form = new FormData();
  for (const [name, value] of fields instanceof URLSearchParams ? fields : Object.entries(fields)) form.append(name, value);
  return form;
}

/**
 * `const like = useFetcher<typeof likeAction>()`: posts without navigating; `like.data` is the action's value.
 * Outcomes are never silent: a redirect navigates, a not-found, forbidden, unauthorized or error shows its
 * page as a navigation would. After an action the page's loaders run again, so the page shows what changed.
 */
export function useFetcher<A extends (ctx: never) => unknown = () => unknown>(): Fetcher<ActionValue<A>> {
  const nav = useNavigation();
  const [snapshot, setSnapshot] = useState<Snapshot<ActionValue<A>>>({ state: "idle", data: undefined, formData: undefined });
  const current = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => current.current?.abort(), []);

  const run = useCallback(
    async (href: string, state: FetcherState, body?: FormData | URLSearchParams, formData?: FormData, fallback?: () => void) => {
      // A new request takes over: the answer of the one before it is no longer wanted.
      current.current?.abort();
      const controller = (current.current = new AbortController());
      setSnapshot((s) => ({ ...s, state, formData }));
      await nav.fetch({
        href,
        body,
        fallback,
        signal: controller.signal,
        // Called in the same render as the page it leads to, so the page never shows both the new data
        // and the fields still in flight (an optimistic count twice).
        done: (answer) => {
          // A request another one took over from no longer speaks for the fetcher.
          if (controller.signal.aborted) return;
          setSnapshot((s) => ({ state: "idle", data: answer ? (answer.data as ActionValue<A>) : s.data, formData: undefined }));
        },
      });
    },
    [nav],
  );

  const submit = useCallback(
    (fields: FormData | URLSearchParams | Record<string, string>, { action, fallback }: { action: string; fallback?: () => void }) => {
      const body = fields instanceof FormData || fields instanceof URLSearchParams ? fields : new URLSearchParams(fields);
      return run(action, "submitting", body, asFormData(fields), fallback);
    },
    [run],
  );
  const load = useCallback((href: string) => run(href, "loading"), [run]);

  // One component per fetcher, made once: a new one on every render would remount the form and lose its fields.
  const Form = useMemo(
    () =>
      function FetcherForm({ action, onSubmit, ...rest }: FetcherFormProps) {
        const post = usePostHandler(onSubmit, ({ action, body, fallback }) => void submit(body, { action, fallback }));
        return <form {...rest} method="post" action={action} onSubmit={post} />;
      },
    [submit],
  );

  return { ...snapshot, Form, submit, load };
}
