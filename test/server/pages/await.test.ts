// <Await errorElement>: a streamed value that fails shows its section's fallback with the server's digest, in the
// document itself, and the status stays the one decided before the first byte; a streamed outcome is as before.
import { beforeAll, describe, expect, test } from "bun:test";
import { serveApp, type ServedApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";
import { settledInScripts } from "../../support/page-state.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
});

/** The document at `path`, read whole, with its status. */
async function documentAt(path: string) {
  const res = await t.request(path);
  return { status: res.status, html: await res.text() };
}

/** The digest a section's errorElement shows. */
const shownDigest = (html: string, id: string) =>
  new RegExp(`id="${id}"[^>]*>This section failed: <code>([0-9a-z]{10})</code>`).exec(html)?.[1];

describe("<Await errorElement>", () => {
  test("each failed value's section shows the digest its settlement carries: one failed before the shell in the shell, one after it streamed; status 200", async () => {
    const { status, html } = await documentAt("/sections");
    expect(status).toBe(200);
    const digests = Object.fromEntries(
      settledInScripts(html).map((s: { key: string; error?: { digest: string } }) => [s.key, s.error?.digest]),
    );
    expect(digests).toEqual({
      early: expect.stringMatching(/^[0-9a-z]{10}$/),
      late: expect.stringMatching(/^[0-9a-z]{10}$/),
      fine: undefined,
    });
    expect([shownDigest(html, "early-failed"), shownDigest(html, "late-failed")]).toEqual([
      digests.early,
      digests.late,
    ]);
    // React streams what completes after the shell in a hidden element its inline script moves into place.
    const streamed = html.indexOf("<div hidden");
    expect(html.indexOf('id="early-failed"')).toBeLessThan(streamed);
    expect(html.indexOf('id="late-failed"')).toBeGreaterThan(streamed);
    expect(html).toContain('<p id="fine">the fine section</p>');
    expect(html).not.toContain("Fixture failure");
  });

  test("a streamed notFound() is no error of the section: noindex and the outcome stream as before, no errorElement", async () => {
    const { status, html } = await documentAt("/section-not-found");
    expect([status, html.includes('<meta name="robots" content="noindex"/>'), html.includes("missing-failed")]).toEqual(
      [200, true, false],
    );
    expect(settledInScripts(html)).toEqual([
      { route: "/section-not-found", key: "missing", outcome: { kind: "not-found", status: 404 } },
    ]);
  });
});
