// Form.tsx: a real <form method="post"> that works with JavaScript off (a document post, the server's status
// and page). With JavaScript on it posts through page data instead: no document load, a redirect becomes a
// client navigation, the action's data shows in place, and a pending state while the server works. A form
// that should not move the page (a like button, a delete in a list) is a fetcher's (useFetcher).
import { createContext, useContext, useRef, useState, type FormHTMLAttributes } from "react";
import { usePostHandler } from "./form-post.ts";
import { useNavigation, useNavState } from "./navigation.ts";

const FormPendingContext = createContext(false);

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, "method" | "action"> {
  /** Where the form posts: a route with an action. The current page when omitted. */
  action?: string;
}

export function Form({ action, onSubmit, children, ...rest }: FormProps) {
  const nav = useNavigation();
  const { path, search } = useNavState();
  const [pending, setPending] = useState(false);
  // A ref, not the state: two submits in one frame (a double click) both see the first one in flight.
  const inFlight = useRef(false);
  const submit = usePostHandler(onSubmit, ({ form, action, body, fallback }) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    void nav
      .submit({ action, body, fallback })
      .then((succeeded) => {
        // As after a document post and its redirect: a form that did its work starts empty again. One that
        // failed keeps what the visitor typed.
        if (succeeded && form.isConnected) form.reset();
      })
      .finally(() => {
        inFlight.current = false;
        setPending(false);
      });
  });
  return (
    <form {...rest} method="post" action={action ?? (search ? `${path}?${search}` : path)} onSubmit={submit} aria-busy={pending || undefined}>
      <FormPendingContext value={pending}>{children}</FormPendingContext>
    </form>
  );
}

/** True while the enclosing `<Form>` is submitting: disable its button, show a spinner. */
export function useFormPending(): boolean {
  return useContext(FormPendingContext);
}
