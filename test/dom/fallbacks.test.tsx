// The outcome pages and the exception page, as a visitor sees them.
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, screen } from "@testing-library/react";
import { GlobalError } from "../../src/app/fallbacks/GlobalError.tsx";
import { OutcomePage } from "../../src/brisk/runtime/OutcomePage.tsx";
import { navigationFor, payload, renderWith } from "./render.tsx";

afterEach(cleanup);

describe("outcome pages", () => {
  test.each([
    ["not-found", "Page not found"],
    ["forbidden", "Forbidden"],
    ["unauthorized", "Sign-in required"],
  ] as const)("%s renders its own page, a way home and noindex", async (kind, heading) => {
    await renderWith(navigationFor(payload()).nav, <OutcomePage kind={kind} />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain(heading);
    expect(screen.getByRole("link", { name: /home page/ }).getAttribute("href")).toBe("/");
    expect(document.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
  });
});

describe("the exception page", () => {
  test("server-side: names the host and shows the digest", async () => {
    await renderWith(navigationFor(payload()).nav, <GlobalError side="server" host="shop.example" digest="abc123defg" />);
    expect(screen.getByRole("alert").textContent).toContain("A server-side exception has occurred while loading shop.example");
    expect(screen.getByText("abc123defg").tagName).toBe("CODE");
  });

  test("client-side without a digest: no digest line", async () => {
    await renderWith(navigationFor(payload()).nav, <GlobalError side="client" host="shop.example" />);
    expect(screen.getByRole("alert").textContent).toContain("A client-side exception has occurred while loading shop.example");
    expect(screen.queryByText(/Digest/)).toBeNull();
  });

  test("shows a message and stack only when given (development)", async () => {
    await renderWith(
      navigationFor(payload()).nav,
      <GlobalError side="server" host="h" digest="d" message="boom in loader" stack="Error: boom\n    at x (y.ts:1:2)" />,
    );
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("boom in loader");
    expect(document.querySelector("pre")?.textContent).toContain("y.ts:1:2");
  });
});
