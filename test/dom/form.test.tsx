// <Form>: a real post form on the server and without JavaScript; in the browser it hands the submission to
// the navigation store once, with the fields and the button that sent it, and empties itself after success.
import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { Form, useFormPending } from "../../src/runtime/Form.tsx";
import type { Navigation, Submission } from "../../src/runtime/navigation.ts";
import { navigationFor, payload, renderWith } from "./render.tsx";

afterEach(cleanup);

function Pending() {
  return <output>{useFormPending() ? "pending" : "idle"}</output>;
}

function harness(answer: () => Promise<boolean>) {
  const submissions: Submission[] = [];
  const { nav } = navigationFor(payload({ path: "/items", search: "page=2" }));
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
  test("a post form to the current page (it works without JavaScript); one submission at a time: the fields, the submitter, and navigate=false handed on; pending meanwhile", async () => {
    let finish!: (ok: boolean) => void;
    const { navigation, submissions } = harness(() => new Promise<boolean>((r) => (finish = r)));
    await renderWith(
      navigation,
      <Form navigate={false}>
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
    expect(submissions[0]!.navigate).toBe(false);
    expect(new URLSearchParams(submissions[0]!.body as URLSearchParams).toString()).toBe("text=hello&intent=delete");
    expect(screen.getByRole("status").textContent).toBe("pending");
    await act(async () => finish(true));
    expect(screen.getByRole("status").textContent).toBe("idle");
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
