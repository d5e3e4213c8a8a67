// The outcome pages and the exception page, as a visitor sees them.
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, screen } from "@testing-library/react";
import { clientErrorPageProps, showsErrorDetails } from "../../src/runtime/error-page.ts";
import { OutcomePage } from "../../src/runtime/OutcomePage.tsx";
import { ErrorPage } from "../fixtures/app/pages.tsx";
import { pagePayload, testNavigation } from "../../src/server/testing/dom.tsx";
import { renderWith } from "./render.tsx";

afterEach(cleanup);

describe("outcome pages", () => {
  test.each([
    ["not-found", "Page not found"],
    ["forbidden", "Forbidden"],
    ["unauthorized", "Sign-in required"],
  ] as const)("%s renders its own page, a way home and noindex", async (kind, heading) => {
    await renderWith(testNavigation(pagePayload()).nav, <OutcomePage kind={kind} />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain(heading);
    expect(screen.getByRole("link", { name: /home page/ }).getAttribute("href")).toBe("/");
    expect(document.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
  });
});

describe("the exception page of an error caught in the browser", () => {
  test("names the host and the side, and shows the digest", async () => {
    const error = Object.assign(new Error("boom"), { digest: "abc123defg", side: "server" });
    await renderWith(
      testNavigation(pagePayload()).nav,
      <ErrorPage {...clientErrorPageProps(error, "shop.example", "production")} />,
    );
    expect(screen.getByRole("alert").textContent).toContain(
      "A server-side exception has occurred while loading shop.example",
    );
    expect(screen.getByText("abc123defg").tagName).toBe("CODE");
  });

  test.each(["production", "test"] as const)("NODE_ENV=%s: no message or stack, as the server's own rule", (mode) => {
    const props = clientErrorPageProps(new Error("secret detail"), "h", mode);
    // A failure of the browser's own gets a digest made there; nothing else of it shows.
    expect(props).toEqual({ side: "client", host: "h", digest: expect.stringMatching(/^[0-9a-z]{10}$/) });
    expect(showsErrorDetails(mode)).toBe(false);
  });

  test("development: the message and the stack, on the page", async () => {
    const error = new Error("boom in loader");
    await renderWith(
      testNavigation(pagePayload()).nav,
      <ErrorPage {...clientErrorPageProps(error, "h", "development")} />,
    );
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("boom in loader");
    expect(document.querySelector("pre")?.textContent).toContain("fallbacks.test.tsx");
  });
});
