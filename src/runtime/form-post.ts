// form-post.ts: a form's submit event as the post the browser would send, for <Form> and a fetcher's form to
// send through page data instead, and to hand back to the browser when only a document post can answer.
import { useRef, type SubmitEvent } from "react";

export interface FormPost {
  form: HTMLFormElement;
  /** The form's `action`, resolved against the page. */
  action: string;
  /** The fields with the button that submitted the form: urlencoded unless the form asks for multipart (files). */
  body: FormData | URLSearchParams;
  /** Lets the browser post the form itself. */
  fallback(): void;
}

/** An onSubmit that hands the post to `send`, unless the app's own handler prevented it. */
export function usePostHandler(onSubmit: ((event: SubmitEvent<HTMLFormElement>) => void) | undefined, send: (post: FormPost) => void) {
  const native = useRef(false);
  return (event: SubmitEvent<HTMLFormElement>) => {
    onSubmit?.(event);
    // The app's own handler prevented it, or this is the browser's own post asked for by fallback().
    if (event.defaultPrevented || native.current) return;
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = event.nativeEvent.submitter;
    const fields = new FormData(form, submitter);
    const body = form.enctype === "multipart/form-data" ? fields : new URLSearchParams(fields as unknown as string[][]);
    const fallback = () => {
      native.current = true;
      form.requestSubmit(submitter);
    };
    send({ form, action: form.action, body, fallback });
  };
}
