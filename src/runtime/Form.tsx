// Form.tsx: a real <form> that works with JavaScript off: a post is a document post (the server's status and
// page), a GET form loads its URL with the fields as the search. With JavaScript on, a post goes through page
// data instead (no document load, a redirect becomes a client navigation in a new history entry, the action's
// data shows in place, a pending state while the server works) and a GET form navigates on the client. A form
// that should not move the page (a like button, a delete in a list) is a fetcher's (useFetcher).
import { createContext, useContext, useRef, useState, type FormHTMLAttributes, type Ref } from "react";
import { usePostHandler } from "./form-post.ts";
import { useNavigation, useNavState } from "./navigation.ts";
import type { CheckedHref } from "./route-paths.ts";

const FormPendingContext = createContext(false);

export interface FormProps<Action extends string = string>
  extends Omit<FormHTMLAttributes<HTMLFormElement>, "method" | "action"> {
  /**
   * Where the form goes: a route with an action (a post), or a page (a GET), as a path of the app's route table
   * (`CheckedHref`). The current page when omitted.
   */
  action?: CheckedHref<Action>;
  /** `"post"` (the default) runs the route's action; `"get"` loads `action` with the fields as its search. */
  method?: "get" | "post";
  /** The page it leads to takes the current history entry instead of a new one. */
  replace?: boolean;
  ref?: Ref<HTMLFormElement>;
}

export function Form<const Action extends string>({
  action,
  method = "post",
  replace,
  onSubmit,
  children,
  ...rest
}: FormProps<Action>) {
  const nav = useNavigation();
  const { path, search } = useNavState();
  const [pending, setPending] = useState(false);
  // A ref, not the state: two submits in one frame (a double click) both see the first one in flight.
  const inFlight = useRef(false);
  const submit = usePostHandler(onSubmit, ({ form, ...request }) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    void nav
      .submit({ ...request, replace })
      .then((succeeded) => {
        // As after a document post and its redirect: a form that did its work starts empty again. One that
        // failed keeps what the visitor typed; a search form keeps the search it shows.
        if (succeeded && request.method === "post" && form.isConnected) form.reset();
      })
      .finally(() => {
        inFlight.current = false;
        setPending(false);
      });
  });
  // A GET form's own search is replaced by its fields, as the browser does; a post goes back to this very page.
  const here = method === "get" || !search ? path : `${path}?${search}`;
  return (
    <form {...rest} method={method} action={action ?? here} onSubmit={submit} aria-busy={pending || undefined}>
      <FormPendingContext value={pending}>{children}</FormPendingContext>
    </form>
  );
}

/** True while the enclosing `<Form>` is submitting: disable its button, show a spinner. */
export function useFormPending(): boolean {
  return useContext(FormPendingContext);
}
