// form-post.ts: a form's submit event as the request the browser would send, for <Form> and a fetcher's form to
// send through page data instead, and to hand back to the browser when only a document request can answer.
import { useRef, type SubmitEvent } from "react";

export interface FormPost {
  form: HTMLFormElement;
  /** The form's `action` (or its button's `formaction`), resolved against the page. */
  action: string;
  /** The form's `method` (or its button's `formmethod`). */
  method: "get" | "post";
  /** The fields with the button that submitted the form: urlencoded unless a post asks for multipart (files). */
  body: FormData | URLSearchParams;
  /** The same fields as FormData. */
  formData: FormData;
  /** Lets the browser send the form itself. */
  fallback(): void;
}

/** Fields as a urlencoded form carries them: a file by its name, as the browser sends it. */
function urlencoded(fields: FormData): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of fields) params.append(name, typeof value === "string" ? value : value.name);
  return params;
}

/** An onSubmit that hands the request to `send`, unless the app's own handler prevented it. */
export function usePostHandler(
  onSubmit: ((event: SubmitEvent<HTMLFormElement>) => void) | undefined,
  send: (post: FormPost) => void,
) {
  const native = useRef(false);
  return (event: SubmitEvent<HTMLFormElement>) => {
    onSubmit?.(event);
    // The app's own handler prevented it, or this is the browser's own request asked for by fallback().
    if (event.defaultPrevented || native.current) return;
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = event.nativeEvent.submitter as HTMLButtonElement | HTMLInputElement | null;
    const formData = new FormData(form, submitter);
    const method =
      (submitter?.getAttribute("formmethod") ?? form.getAttribute("method"))?.toLowerCase() === "get" ? "get" : "post";
    const action = submitter?.hasAttribute("formaction") ? submitter.formAction : form.action;
    const multipart =
      method === "post" && (submitter?.getAttribute("formenctype") ?? form.enctype) === "multipart/form-data";
    const fallback = () => {
      native.current = true;
      form.requestSubmit(submitter);
    };
    send({ form, action, method, body: multipart ? formData : urlencoded(formData), formData, fallback });
  };
}
