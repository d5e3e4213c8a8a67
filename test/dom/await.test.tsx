// <Await>: a streamed value's section, and the errorElement that stands in for it when the value fails, with the
// digest; an outcome, or a failure without an errorElement, still reaches the page's boundary.
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { act, cleanup, screen } from "@testing-library/react";
import { Suspense } from "react";
import { renderToString } from "react-dom/server";
import { AppContext, appRuntime } from "../../src/runtime/app-context.ts";
import { Await, useAsyncError } from "../../src/runtime/Await.tsx";
import { openPage } from "../../src/runtime/deferred.tsx";
import { PageBoundary } from "../../src/runtime/PageBoundary.tsx";
import type { DeferredSettlement } from "../../src/runtime/page-payload.ts";
import { ReporterContext, type ErrorReport } from "../../src/runtime/report.ts";
import { pagePayload, testNavigation } from "../../src/server/testing/dom.tsx";
import fixtureApp from "../fixtures/app/app.ts";
import { renderWith } from "./render.tsx";

afterEach(cleanup);

/** A streamed value as pages read it, and how it settles, as its inline script or page-data line settles it. */
function streamed() {
  const page = openPage([{ id: "r", ready: {}, deferred: ["v"] }]);
  const value = (page.data.get("r") as { v: Promise<string> }).v;
  const settle = (s: Omit<DeferredSettlement, "route" | "key">) => page.settle({ route: "r", key: "v", ...s });
  return { value, settle };
}

function Failed() {
  const { digest } = useAsyncError();
  return <p role="alert">{`failed: ${digest}`}</p>;
}

/** A section of the value, with the errorElement that shows its digest unless told `bare`. */
const section = (value: Promise<string>, bare = false) => (
  <Suspense fallback={<p>waiting</p>}>
    <Await resolve={value} errorElement={bare ? undefined : <Failed />}>
      {(text) => <p>{`arrived: ${text}`}</p>}
    </Await>
  </Suspense>
);

const { nav } = testNavigation(pagePayload());

async function renderSection(ui: React.ReactNode) {
  const reports: ErrorReport[] = [];
  await renderWith(
    nav,
    <ReporterContext value={(r) => void reports.push(r)}>
      <PageBoundary>
        <h1>The rest of the page</h1>
        {ui}
      </PageBoundary>
    </ReporterContext>,
  );
  return reports;
}

describe("Await", () => {
  test("a value settled already renders at once, a failure's errorElement too: what the server rendered, hydration renders", () => {
    const [arrived, failed] = [streamed(), streamed()];
    arrived.settle({ value: "hello" });
    failed.settle({ error: { digest: "abcde12345", side: "server" } });
    const html = renderToString(
      <AppContext value={appRuntime({ app: fixtureApp, navigation: nav, settlements: [] })}>
        {section(arrived.value)}
        {section(failed.value)}
      </AppContext>,
    );
    expect(html).toContain("arrived: hello");
    expect(html).toContain("failed: abcde12345");
    expect(html).not.toContain("waiting");
  });

  test("a value that fails after the page rendered: its errorElement with the server's digest, the rest of the page stays; the server's failure is not reported again", async () => {
    const { value, settle } = streamed();
    const reports = await renderSection(section(value));
    expect(screen.getByText("waiting")).toBeTruthy();
    await act(async () => settle({ error: { digest: "abcde12345", side: "server" } }));
    expect(screen.getByRole("alert").textContent).toBe("failed: abcde12345");
    expect(screen.getByRole("heading").textContent).toBe("The rest of the page");
    expect(reports).toEqual([]);
  });

  test("a failure of the browser's own (the stream ended first): reported once, with the digest its errorElement shows", async () => {
    const { value, settle } = streamed();
    const reports = await renderSection(section(value));
    await act(async () =>
      settle({
        error: { digest: "lost", side: "client", message: "The page data stream ended before this value arrived" },
      }),
    );
    const shown = screen.getByRole("alert").textContent!.replace("failed: ", "");
    expect(shown).toMatch(/^[0-9a-z]{10}$/);
    expect(reports.map((r) => [r.digest, r.mechanism])).toEqual([[shown, "caught"]]);
  });

  test("an outcome, or a failure without an errorElement, reaches the page's boundary as before", async () => {
    const quiet = spyOn(console, "error").mockImplementation(() => {});
    const missing = streamed();
    await renderSection(section(missing.value));
    await act(async () => missing.settle({ outcome: { kind: "not-found", status: 404 } }));
    expect(screen.getByRole("heading").textContent).toBe("404 Page not found");
    cleanup();
    const failed = streamed();
    await renderSection(section(failed.value, true));
    await act(async () => failed.settle({ error: { digest: "abcde12345", side: "server" } }));
    expect(screen.getByRole("alert").textContent).toContain("server-side exception");
    quiet.mockRestore();
  });

  test("useAsyncError() outside an errorElement says where it belongs", async () => {
    expect(() => renderToString(<Failed />)).toThrow("useAsyncError() is for the errorElement of an <Await>");
  });
});
