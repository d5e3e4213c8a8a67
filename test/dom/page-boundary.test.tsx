// What PageBoundary shows for what a page throws in the browser, and what it reports.
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { cleanup, screen } from "@testing-library/react";
import { forbidden, notFound, redirect } from "../../src/runtime/outcome.ts";
import { PageBoundary } from "../../src/runtime/PageBoundary.tsx";
import { ReporterContext, type ErrorReport } from "../../src/runtime/report.ts";
import { pagePayload, testNavigation } from "../../src/server/testing/dom.tsx";
import { renderWith } from "./render.tsx";

afterEach(cleanup);

function Throws({ thrower }: { thrower: () => never }): never {
  return thrower();
}

async function renderThrowing(thrower: () => never, mode: "production" | "development" = "production") {
  const reports: ErrorReport[] = [];
  const { nav, calls } = testNavigation(pagePayload(), undefined, mode);
  // React logs caught errors on the console; that is expected here and not what these tests read.
  const quiet = spyOn(console, "error").mockImplementation(() => {});
  await renderWith(
    nav,
    <ReporterContext value={(r) => void reports.push(r)}>
      <PageBoundary>
        <Throws thrower={thrower} />
      </PageBoundary>
    </ReporterContext>,
  );
  quiet.mockRestore();
  return { reports, calls };
}

describe("PageBoundary", () => {
  test("an error shows the client-side exception page and is reported once", async () => {
    const { reports } = await renderThrowing(() => {
      throw new Error("secret detail");
    });
    expect(screen.getByRole("alert").textContent).toContain(
      "client-side exception has occurred while loading example.test",
    );
    expect(screen.getByRole("alert").textContent).not.toContain("secret detail");
    expect(reports).toHaveLength(1);
    expect(reports[0]?.mechanism).toBe("boundary");
  });

  test("a failure of the browser's own gets a digest made there: the page shows the one its report carries", async () => {
    const { reports } = await renderThrowing(() => {
      throw new Error("client failure");
    });
    const shown = screen.getByRole("alert").querySelector("code")?.textContent;
    expect(shown).toMatch(/^[0-9a-z]{10}$/);
    expect(reports[0]?.digest).toBe(shown!);
  });

  test("a server error that streamed late keeps its digest and server side", async () => {
    const { reports } = await renderThrowing(() => {
      throw Object.assign(new Error("A server-side exception occurred"), { digest: "late123456", side: "server" });
    });
    expect(screen.getByRole("alert").textContent).toContain("server-side exception");
    expect(screen.getByText("late123456")).toBeTruthy();
    expect(reports[0]?.digest).toBe("late123456");
  });

  test("in development the message is shown", async () => {
    await renderThrowing(() => {
      throw new Error("visible in dev");
    }, "development");
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("visible in dev");
  });

  test.each([
    [notFound, "Page not found"],
    [forbidden, "Forbidden"],
  ])("an outcome shows its fallback and is not reported", async (thrower, heading) => {
    const { reports } = await renderThrowing(thrower);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain(heading);
    expect(reports).toEqual([]);
  });

  test("a redirect navigates, replacing the history entry", async () => {
    const { calls, reports } = await renderThrowing(() => redirect("/elsewhere"));
    expect(calls).toEqual([["/elsewhere", { replace: true }]]);
    expect(reports).toEqual([]);
  });
});

describe("a route's own boundary (its fallbacks)", () => {
  const RouteNotFound = () => <p>route not found</p>;
  const RouteError = ({ digest }: { digest?: string }) => <p role="status">route error {digest}</p>;

  async function renderNested(
    thrower: () => never,
    fallbacks: { "not-found"?: typeof RouteNotFound; error?: typeof RouteError },
  ) {
    const reports: ErrorReport[] = [];
    const quiet = spyOn(console, "error").mockImplementation(() => {});
    await renderWith(
      testNavigation(pagePayload()).nav,
      <ReporterContext value={(r) => void reports.push(r)}>
        <PageBoundary>
          <main>
            <nav>layout</nav>
            <PageBoundary fallbacks={fallbacks}>
              <Throws thrower={thrower} />
            </PageBoundary>
          </main>
        </PageBoundary>
      </ReporterContext>,
    );
    quiet.mockRestore();
    return reports;
  }

  test("shows the outcome it has a page for, inside what is around it", async () => {
    const reports = await renderNested(notFound, { "not-found": RouteNotFound });
    expect(screen.getByText("route not found")).toBeTruthy();
    expect(screen.getByText("layout")).toBeTruthy();
    expect(reports).toHaveLength(0);
  });

  test("shows an error with the digest its one report carries", async () => {
    const reports = await renderNested(
      () => {
        throw new Error("boom");
      },
      { error: RouteError },
    );
    expect(reports).toHaveLength(1);
    expect(screen.getByRole("status").textContent).toBe(`route error ${reports[0]!.digest}`);
    expect(screen.getByText("layout")).toBeTruthy();
  });

  test("passes on what it has no page for: the app's page shows it, reported once", async () => {
    const reports = await renderNested(
      () => {
        throw new Error("boom");
      },
      { "not-found": RouteNotFound },
    );
    expect(screen.queryByText("layout")).toBeNull();
    expect(screen.getByRole("alert").textContent).toContain("client-side exception");
    expect(reports).toHaveLength(1);
  });

  test("passes on an outcome it has no page for", async () => {
    await renderNested(forbidden, { error: RouteError });
    expect(screen.queryByText("layout")).toBeNull();
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("Forbidden");
  });
});
