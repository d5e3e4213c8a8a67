// fetcher.tsx: a form (or a call) that posts to a route's action, or loads a route's data, without moving the
// page: a like button, a newsletter sign-up, a search box's suggestions. Each fetcher has its own state, so
// several can be in flight at once, and a page can show the outcome it expects while the server works; any
// component can see them all (useFetchers), and components that name the same key share one.
import { useCallback, useEffect, useId, useMemo, useSyncExternalStore, type FormHTMLAttributes, type Ref } from "react";
import type { ActionValue } from "./action-data.ts";
import {
  fetcherStore,
  type FetcherInFlight,
  type FetcherSnapshot,
  type FetcherState,
  type FetcherStore,
} from "./fetcher-store.ts";
import { usePostHandler } from "./form-post.ts";
import { useNavigation, type FetcherRequest, type Navigation } from "./navigation.ts";
import type { CheckedHref } from "./route-paths.ts";

export type { FetcherInFlight, FetcherState };

export interface FetcherFormProps<Action extends string = string>
  extends Omit<FormHTMLAttributes<HTMLFormElement>, "method" | "action"> {
  /** The route whose action it posts to: a path of the app's route table (`CheckedHref`). */
  action: CheckedHref<Action>;
  ref?: Ref<HTMLFormElement>;
  /** `false`: the form keeps its fields after a successful post too (by default it starts empty, as `<Form>` does). */
  reset?: boolean;
}

export interface Fetcher<T> extends FetcherSnapshot<T> {
  /** Its key: the one given, or one of its own. */
  key: string;
  /**
   * A real `<form method="post">`: without JavaScript the browser posts it and shows the page it gets back,
   * as for `<Form>`. With JavaScript it posts through the fetcher and the page stays.
   */
  Form<const Action extends string>(props: FetcherFormProps<Action>): React.JSX.Element;
  /** Posts these fields to the action at `action`, a path of the app's route table. */
  submit<const Action extends string>(
    fields: FormData | URLSearchParams | Record<string, string>,
    options: { action: CheckedHref<Action> },
  ): Promise<void>;
  /** Loads the data of the page at `href` (its innermost route's), a path of the app's route table. */
  load<const To extends string>(href: CheckedHref<To>): Promise<void>;
  /**
   * Idle again, with no data. A load in flight is abandoned; a post in flight runs on (the page still shows what
   * the action changed) but its answer is no longer the fetcher's.
   */
  reset(): void;
}

export interface FetcherOptions {
  /**
   * Components that name the same key share one fetcher: its state, its data, its request (a button in a list
   * and the count in the header). Without one, the fetcher is this component's own.
   */
  key?: string;
}

type Fields = FormData | URLSearchParams | Record<string, string>;

function asFormData(fields: Fields): FormData {
  if (fields instanceof FormData) return fields;
  const form = new FormData();
  for (const [name, value] of fields instanceof URLSearchParams ? fields : Object.entries(fields))
    form.append(name, value);
  return form;
}

/** Where a request goes, as the page names it: path and search. */
function pathOf(href: string): string {
  const url = new URL(href, location.href);
  return url.pathname + url.search;
}

/** The fetcher a request speaks for. */
interface FetcherTarget {
  nav: Navigation;
  store: FetcherStore;
  key: string;
}

/** A request of a fetcher: the state it shows while in flight, and what goes to `nav.fetch`. */
interface FetcherCall extends Omit<FetcherRequest, "signal" | "done"> {
  state: FetcherState;
}

/** Runs `call` for the fetcher; resolves true when it succeeded and still speaks for the fetcher. */
async function request(target: FetcherTarget, call: FetcherCall): Promise<boolean> {
  const { nav, store, key } = target;
  const { href, state, body, formData, fallback } = call;
  // A new request takes over: the response to the one before it is no longer wanted.
  const controller = store.start(key);
  store.loadedBy(key, body ? undefined : () => void request(target, { href, state: "loading" }));
  store.update(key, (s) => ({ ...s, state, formData, formAction: body ? pathOf(href) : undefined }));
  const ok = await nav.fetch({
    href,
    body,
    formData,
    fallback,
    signal: controller.signal,
    // Called in the same render as the page it leads to, so the page never shows both the new data
    // and the fields still in flight (an optimistic count twice).
    done: (result) => {
      // A request another one took over from, or one from before a reset(), no longer speaks for the fetcher.
      if (!store.owns(key, controller)) return;
      store.update(key, (s) => ({
        state: "idle",
        data: result ? result.data : s.data,
        formData: undefined,
        formAction: undefined,
      }));
    },
  });
  return ok && store.owns(key, controller);
}

/** Posts `fields` to `action`; resolves true when the post succeeded and still speaks for the fetcher. */
type Post = (fields: Fields, action: string, fallback?: () => void) => Promise<boolean>;

/** The fetcher's `<form>`, which posts through `post`. */
function fetcherForm(post: Post) {
  // Its props as they arrive: the caller's types checked the path.
  return function FetcherForm({
    action,
    onSubmit,
    reset: resets = true,
    ...rest
  }: Omit<FetcherFormProps, "action"> & { action: string }) {
    const send = usePostHandler(onSubmit, async ({ form, action, body, fallback }) => {
      // As <Form>: a form whose post succeeded starts empty again; one the server refused keeps what was typed.
      if ((await post(body, action, fallback)) && resets && form.isConnected) form.reset();
    });
    return <form {...rest} method="post" action={action} onSubmit={send} />;
  };
}

/**
 * `const like = useFetcher<typeof likeAction>()`: posts without navigating; `like.data` is the action's value.
 * Outcomes are never silent: a redirect navigates, a not-found, forbidden, unauthorized or error shows its
 * page as a navigation would. After an action the page's loaders run again, and every fetcher's loaded data is
 * loaded again, so the page shows what changed.
 * A request is abandoned when another starts on the same fetcher, or the last component using it goes.
 */
export function useFetcher<A extends (ctx: never) => unknown = () => unknown>(
  options: FetcherOptions = {},
): Fetcher<ActionValue<A>> {
  const nav = useNavigation();
  const store = fetcherStore(nav);
  const own = useId();
  const key = options.key ?? own;
  const read = () => store.get(key) as FetcherSnapshot<ActionValue<A>>;
  const snapshot = useSyncExternalStore(store.subscribe, read, read);
  useEffect(() => store.use(key), [store, key]);

  const run = useCallback((call: FetcherCall) => request({ nav, store, key }, call), [nav, store, key]);
  const post = useCallback<Post>(
    (fields, action, fallback) => {
      const body =
        fields instanceof FormData || fields instanceof URLSearchParams ? fields : new URLSearchParams(fields);
      return run({ href: action, state: "submitting", body, formData: asFormData(fields), fallback });
    },
    [run],
  );
  const submit = useCallback(
    async (fields: Fields, { action }: { action: string }) => void (await post(fields, action)),
    [post],
  );
  const load = useCallback(async (href: string) => void (await run({ href, state: "loading" })), [run]);
  const reset = useCallback(() => store.reset(key), [store, key]);
  // One component per fetcher, made once: a new one on every render would remount the form and lose its fields.
  const Form = useMemo(() => fetcherForm(post), [post]);

  return { ...snapshot, key, Form, submit, load, reset };
}

/** Every fetcher of the page that is not idle, from any component: their keys, states, fields and actions. */
export function useFetchers(): FetcherInFlight[] {
  const store = fetcherStore(useNavigation());
  return useSyncExternalStore(store.subscribe, store.inFlight, store.inFlight);
}
