// Form.tsx: a real <form method="post"> that works with JavaScript off (a document post, the server's status
// and page). With JavaScript on it posts through page data instead: no document load, a redirect becomes a
// client navigation, the action's data shows in place, and a pending state while the server works.
import { createContext, useContext, useRef, useState, type FormHTMLAttributes, type SubmitEvent } from "react";
import { useNavigation, useNavState } from "./navigation.ts";

const FormPendingContext = createContext(false);

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, "method" | "action"> {
  /** Where the form posts: a page whose route has an action. The current page when omitted. */
  action?: string;
  /**
   * False for a form that should not move the page (a delete button in a list): after the action the
   * current page's data is fetched again, and the URL stays. With JavaScript off the browser shows the
   * action's page, as any form post does.
   */
  navigate?: boolean;
}

export function Form({ action, navigate = true, onSubmit, children, ...rest }: FormProps) {
  const nav = useNavigation();
  const { path, search } = useNavState();
  const [pending, setPending] = useState(false);
  // A ref, not the state: two submits in one frame (a double click) both see the first one in flight.
  const inFlight = useRef(false);
  const native = useRef(false);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    onSubmit?.(event);
    // The app's own handler prevented it, or this is the browser's own post we asked for below.
    if (event.defaultPrevented || native.current) return;
    event.preventDefault();
    if (inFlight.current) return;
    const form = event.currentTarget;
    const submitter = event.nativeEvent.submitter;
    const fields = new FormData(form, submitter);
    // The body a browser would send: urlencoded unless the form asks for multipart (files).
    const body = form.enctype === "multipart/form-data" ? fields : new URLSearchParams(fields as unknown as string[][]);
    inFlight.current = true;
    setPending(true);
    const fallback = () => {
      native.current = true;
      form.requestSubmit(submitter);
    };
    void nav
      .submit({ action: form.action, body, navigate, fallback })
      .then((succeeded) => {
        // As after a document post and its redirect: a form that did its work starts empty again. One that
        // failed keeps what the visitor typed.
        if (succeeded && form.isConnected) form.reset();
      })
      .finally(() => {
        inFlight.current = false;
        setPending(false);
      });
  };
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
