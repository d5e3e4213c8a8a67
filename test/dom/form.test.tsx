// <Form>: a real post form on the server and without JavaScript; in the browser it hands the submission to
// the navigation store once, with the fields and the button that sent it, and empties itself after success.
import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { useFetcher, useFetchers } from "../../src/runtime/fetcher.tsx";
import { Form, useFormPending } from "../../src/runtime/Form.tsx";
import type { FetcherRequest, Navigation, Submission } from "../../src/runtime/navigation.ts";
import { pagePayload, testNavigation } from "../../src/server/testing/dom.tsx";
import { committing, renderWith } from "./render.tsx";

afterEach(cleanup);

function Pending() {
  return <output>{useFormPending() ? "pending" : "idle"}</output>;
}

function harness(answer: () => Promise<boolean>) {
  const submissions: Submission[] = [];
  const { nav } = testNavigation(pagePayload({ path: "/items", search: "page=2" }));
  const navigation: Navigation = {
    ...nav,
    submit: (s) => {
      submissions.push(s);
      return answer();
    },
  };
  return { navigation, submissions };
}

describe("Form", () => {
  test("a post form to the current page (it works without JavaScript); one submission at a time: the fields and the submitter handed on; pending meanwhile", async () => {
    let finish!: (ok: boolean) => void;
    const { navigation, submissions } = harness(() => new Promise<boolean>((r) => (finish = r)));
    await renderWith(
      navigation,
      <Form>
        <input name="text" defaultValue="hello" />
        <button type="submit" name="intent" value="delete">
          Delete
        </button>
        <Pending />
      </Form>,
    );
    const form = document.querySelector("form")!;
    expect(form.getAttribute("action")).toBe("/items?page=2");
    expect(form.getAttribute("method")).toBe("post");
    const button = screen.getByRole("button");
    await act(async () => {
      fireEvent.click(button);
      fireEvent.click(button);
    });
    expect(submissions).toHaveLength(1);
    expect(new URLSearchParams(submissions[0]!.body as URLSearchParams).toString()).toBe("text=hello&intent=delete");
    expect(screen.getByRole("status").textContent).toBe("pending");
    await act(async () => finish(true));
    expect(screen.getByRole("status").textContent).toBe("idle");
  });

  test("it takes a ref to its <form>", async () => {
    const ref = { current: null as HTMLFormElement | null };
    await renderWith(harness(async () => true).navigation, <Form ref={ref} />);
    expect(ref.current).toBe(document.querySelector("form"));
  });

  test("after a success the form is empty again; after a failure it keeps what was typed", async () => {
    let ok = true;
    const { navigation } = harness(async () => ok);
    await renderWith(
      navigation,
      <Form>
        <input name="text" defaultValue="" />
        <button type="submit">Save</button>
      </Form>,
    );
    const input = document.querySelector("input")!;
    fireEvent.change(input, { target: { value: "typed" } });
    ok = false;
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    expect(input.value).toBe("typed");
    ok = true;
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    expect(input.value).toBe("");
  });
});

describe("Form method=get", () => {
  test("a real GET form to the current path (the browser replaces the search with its fields); the fields handed on as a GET, the form kept after it", async () => {
    const { navigation, submissions } = harness(async () => true);
    await renderWith(
      navigation,
      <Form method="get">
        <input name="q" defaultValue="" />
        <button type="submit">Search</button>
      </Form>,
    );
    const form = document.querySelector("form")!;
    expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["get", "/items"]);
    const input = document.querySelector("input")!;
    fireEvent.change(input, { target: { value: "lamps" } });
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    expect(submissions.map((s) => [s.method, String(s.body), s.formData.get("q")])).toEqual([
      ["get", "q=lamps", "lamps"],
    ]);
    expect(input.value).toBe("lamps");
  });

  test("replace is handed on with the submission", async () => {
    const { navigation, submissions } = harness(async () => true);
    await renderWith(
      navigation,
      <Form replace>
        <button type="submit">Sign in</button>
      </Form>,
    );
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    expect(submissions.map((s) => [s.method, s.replace])).toEqual([["post", true]]);
  });
});

describe("useFetcher", () => {
  interface Call extends FetcherRequest {
    /** Ends the request with this answer; `ok`: it succeeded (below 400), as an answer with data does unless told. */
    finish(answer: { data: unknown } | undefined, ok?: boolean): void;
  }

  function fetchHarness() {
    const calls: Call[] = [];
    const { nav } = testNavigation(pagePayload({ path: "/items" }));
    const navigation: Navigation = {
      ...nav,
      fetch: (request) =>
        new Promise<boolean>((resolve) => {
          calls.push({
            ...request,
            finish: (answer, ok = answer !== undefined) => (request.done(answer), resolve(ok)),
          });
        }),
    };
    return { navigation, calls };
  }

  function Like({ id }: { id: string }) {
    const like = useFetcher<() => { likes: number }>();
    const shown = like.formData ? `${like.formData.get("n")} (sending)` : String(like.data?.likes ?? 0);
    // The output outside the form: happy-dom's form.reset() empties an <output>, which Chromium's leaves as it is.
    return (
      <>
        <like.Form action={`/items/${id}/like`}>
          <input name="n" defaultValue={id === "a" ? "1" : "2"} />
          <button type="submit">Like {id}</button>
        </like.Form>
        <output data-id={id}>{`${like.state}:${shown}`}</output>
      </>
    );
  }

  const shownFor = (id: string) => document.querySelector(`output[data-id="${id}"]`)!.textContent;

  test("its form is a real post form to the action, which works without JavaScript", async () => {
    await renderWith(fetchHarness().navigation, <Like id="a" />);
    const form = document.querySelector("form")!;
    expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["post", "/items/a/like"]);
  });

  test("submitting: the fields while in flight (for an optimistic page), then the action's data, each fetcher on its own", async () => {
    const { navigation, calls } = fetchHarness();
    await renderWith(
      navigation,
      <>
        <Like id="a" />
        <Like id="b" />
      </>,
    );
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Like a" })));
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Like b" })));
    expect(calls.map((c) => [new URL(c.href).pathname, String(c.body)])).toEqual([
      ["/items/a/like", "n=1"],
      ["/items/b/like", "n=2"],
    ]);
    expect([shownFor("a"), shownFor("b")]).toEqual(["submitting:1 (sending)", "submitting:2 (sending)"]);
    await act(async () => calls[1]!.finish({ data: { likes: 7 } }));
    expect([shownFor("a"), shownFor("b")]).toEqual(["submitting:1 (sending)", "idle:7"]);
    await act(async () => calls[0]!.finish({ data: { likes: 3 } }));
    expect(shownFor("a")).toBe("idle:3");
  });

  test("an outcome that took the page elsewhere leaves the fetcher idle with its last data", async () => {
    const { navigation, calls } = fetchHarness();
    await renderWith(navigation, <Like id="a" />);
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    await act(async () => calls[0]!.finish(undefined));
    expect(shownFor("a")).toBe("idle:0");
  });

  test("a new submission takes over from the one in flight: only its answer shows", async () => {
    const { navigation, calls } = fetchHarness();
    await renderWith(navigation, <Like id="a" />);
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    expect(calls[0]!.signal.aborted).toBe(true);
    await act(async () => calls[0]!.finish({ data: { likes: 1 } }));
    expect(shownFor("a")).toBe("submitting:1 (sending)");
    await act(async () => calls[1]!.finish({ data: { likes: 2 } }));
    expect(shownFor("a")).toBe("idle:2");
  });

  /** A comment box: what it posts, the fetcher's state and data, and a button that resets the fetcher. */
  function Comment({ keep = false, formRef }: { keep?: boolean; formRef?: React.Ref<HTMLFormElement> }) {
    const comment = useFetcher<() => { saved: string }>();
    return (
      <>
        <comment.Form action="/comments" ref={formRef} reset={!keep}>
          <textarea name="text" defaultValue="" aria-label="Comment" />
          <button type="submit">Send</button>
        </comment.Form>
        <output data-id="comment">{`${comment.state}:${comment.data?.saved ?? "none"}`}</output>
        <button type="button" onClick={comment.reset}>
          Reset
        </button>
      </>
    );
  }

  const typeComment = (text: string) => fireEvent.change(screen.getByRole("textbox"), { target: { value: text } });
  const send = () => act(async () => void fireEvent.click(screen.getByRole("button", { name: "Send" })));
  const typed = () => screen.getByRole<HTMLTextAreaElement>("textbox").value;

  /** Types `text`, sends it, and ends its request with data, succeeded unless `ok` says not: what the box holds then. */
  async function postComment(calls: Call[], text: string, ok = true) {
    typeComment(text);
    await send();
    await act(async () => calls.at(-1)!.finish({ data: { saved: text } }, ok));
    return typed();
  }

  test("its form takes a ref and every form attribute; the app's onSubmit runs first, and preventing it keeps the post back", async () => {
    const { navigation, calls } = fetchHarness();
    const ref = { current: null as HTMLFormElement | null };
    let prevent = true;
    const seen: string[] = [];
    function Upload() {
      const upload = useFetcher();
      return (
        <upload.Form
          action="/uploads"
          ref={ref}
          id="upload"
          className="inline"
          aria-label="Upload"
          noValidate
          encType="multipart/form-data"
          onSubmit={(event) => {
            seen.push(event.currentTarget.id);
            if (prevent) event.preventDefault();
          }}
        >
          <input name="title" defaultValue="cat" required />
          <button type="submit">Upload</button>
        </upload.Form>
      );
    }
    await renderWith(navigation, <Upload />);
    const form = document.querySelector("form")!;
    expect(ref.current).toBe(form);
    expect([
      form.id,
      form.className,
      form.getAttribute("aria-label"),
      form.noValidate,
      form.getAttribute("enctype"),
    ]).toEqual(["upload", "inline", "Upload", true, "multipart/form-data"]);
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    expect([seen, calls.length]).toEqual([["upload"], 0]);
    prevent = false;
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    expect(seen).toEqual(["upload", "upload"]);
    // Its encType is the body's: multipart, as the browser would send it.
    expect(
      calls.map((c) => [new URL(c.href).pathname, c.body instanceof FormData, (c.body as FormData).get("title")]),
    ).toEqual([["/uploads", true, "cat"]]);
  });

  test("after a successful post its form is empty again, as <Form> is; after a refused one (a 422) it keeps what was typed", async () => {
    const { navigation, calls } = fetchHarness();
    await renderWith(navigation, <Comment />);
    expect(await postComment(calls, "too short", false)).toBe("too short");
    expect(await postComment(calls, "Seen on Firefox too")).toBe("");
  });

  test("reset={false}: its form keeps the fields after a successful post too", async () => {
    const { navigation, calls } = fetchHarness();
    await renderWith(navigation, <Comment keep />);
    expect(await postComment(calls, "kept")).toBe("kept");
  });

  test("reset(): idle with no data again; a post in flight is not aborted, but its answer is no longer the fetcher's and its form keeps its fields", async () => {
    const { navigation, calls } = fetchHarness();
    await renderWith(navigation, <Comment />);
    const shown = () => document.querySelector(`output[data-id="comment"]`)!.textContent;
    await postComment(calls, "first");
    expect(shown()).toBe("idle:first");
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Reset" })));
    expect(shown()).toBe("idle:none");
    typeComment("second");
    await send();
    expect(shown()).toBe("submitting:none");
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Reset" })));
    expect([shown(), calls[1]!.signal.aborted]).toEqual(["idle:none", false]);
    await act(async () => calls[1]!.finish({ data: { saved: "second" } }));
    expect([shown(), typed()]).toEqual(["idle:none", "second"]);
  });

  test("reset() during a load abandons it, and what it loaded is not loaded again when the page's levels are", async () => {
    const calls: FetcherRequest[] = [];
    const { navigation: live, store } = committing(testNavigation(pagePayload({ path: "/items" })).nav);
    const navigation: Navigation = { ...live, fetch: (request) => (calls.push(request), Promise.resolve(true)) };
    /** The page's levels loaded again after an action, as the navigation counts it. */
    const revalidate = () => {
      const state = store.getState();
      store.commit({ ...state, revalidated: (state.revalidated ?? 0) + 1 });
    };
    function Count() {
      const count = useFetcher();
      return (
        <>
          <button type="button" onClick={() => void count.load("/count")}>
            Load
          </button>
          <button type="button" onClick={count.reset}>
            Reset
          </button>
          <output>{count.state}</output>
        </>
      );
    }
    await renderWith(navigation, <Count />);
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Load" })));
    await act(async () => calls[0]!.done({ data: 1 }));
    await act(async () => revalidate());
    expect(calls).toHaveLength(2);
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Reset" })));
    expect([calls[1]!.signal.aborted, screen.getByRole("status").textContent]).toEqual([true, "idle"]);
    await act(async () => revalidate());
    expect(calls).toHaveLength(2);
  });
});

describe("fetchers by key, and every fetcher in flight", () => {
  function harness() {
    const calls: FetcherRequest[] = [];
    const { nav } = testNavigation(pagePayload({ path: "/items" }));
    const navigation: Navigation = { ...nav, fetch: (request) => new Promise<boolean>(() => void calls.push(request)) };
    return { navigation, calls };
  }

  function AddButton({ id }: { id: string }) {
    const add = useFetcher({ key: "cart" });
    return (
      <button type="button" onClick={() => void add.submit({ item: id }, { action: "/cart/add" })}>
        Add {id}
      </button>
    );
  }

  function CartState() {
    const cart = useFetcher({ key: "cart" });
    return <output data-id="cart">{`${cart.key}:${cart.state}:${String(cart.formData?.get("item"))}`}</output>;
  }

  function InFlight() {
    const all = useFetchers();
    return (
      <output data-id="all">
        {all.map((f) => `${f.key}@${f.formAction}:${f.state}:${String(f.formData?.get("item"))}`).join(",")}
      </output>
    );
  }

  const text = (id: string) => document.querySelector(`output[data-id="${id}"]`)!.textContent;

  test("components naming the same key share one fetcher; useFetchers lists it from anywhere, with where it posts", async () => {
    const { navigation, calls } = harness();
    await renderWith(
      navigation,
      <>
        <AddButton id="7" />
        <CartState />
        <InFlight />
      </>,
    );
    expect([text("cart"), text("all")]).toEqual(["cart:idle:undefined", ""]);
    await act(async () => void fireEvent.click(screen.getByRole("button")));
    expect(calls).toHaveLength(1);
    expect(text("cart")).toBe("cart:submitting:7");
    expect(text("all")).toBe("cart@/cart/add:submitting:7");
    await act(async () => calls[0]!.done({ data: { count: 1 } }));
    expect([text("cart"), text("all")]).toEqual(["cart:idle:undefined", ""]);
  });

  test("a shared fetcher's request goes on while one of its components goes; the last one going abandons it", async () => {
    const { navigation, calls } = harness();
    function Page() {
      const [shown, setShown] = useState({ button: true, state: true });
      return (
        <>
          {shown.button ? <AddButton id="1" /> : null}
          {shown.state ? <CartState /> : null}
          <button
            type="button"
            onClick={() => setShown((s) => (s.button ? { ...s, button: false } : { ...s, state: false }))}
          >
            Remove one
          </button>
        </>
      );
    }
    await renderWith(navigation, <Page />);
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Add 1" })));
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Remove one" })));
    expect(calls[0]!.signal.aborted).toBe(false);
    expect(text("cart")).toBe("cart:submitting:1");
    await act(async () => void fireEvent.click(screen.getByRole("button", { name: "Remove one" })));
    expect(calls[0]!.signal.aborted).toBe(true);
  });
});
