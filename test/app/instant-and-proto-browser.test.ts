// /examples/instant and /examples/proto in Chromium: streamed values settled before the shell rendered show as
// late ones do (the ready one in its output, the failed one as its section's error with the log line's digest),
// and a __proto__ key in loader data is a key on the document and after a client navigation, with no page error
// and no hydration error.
import { expect, test } from "bun:test";
import { hydrated, logFor, watchPage } from "brisk/test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();
const { open } = chromium;

test("/examples/instant: the ready value in its output, the failed one's section shows the server's digest", async () => {
  const page = await chromium.browser.newPage();
  const watch = watchPage(page);
  const document = await page.goto(`${chromium.served.origin}/examples/instant`);
  await hydrated(page);
  expect(await page.textContent("#instant")).toBe("ready");
  const digest = await page.locator(".section-error .digest code").textContent();
  expect(digest).toMatch(/^[0-9a-z]{10}$/);
  const line = await logFor(
    chromium.served.logs,
    new Response(null, { headers: { "x-request-id": document!.headers()["x-request-id"]! } }),
  );
  expect(line).toMatchObject({ status: 200, phase: "deferred" });
  expect(line.digest).toBe(digest!);
  // The rest of the page stands: only the section failed.
  expect(await page.textContent("h1")).toBe("Settled before the shell");
  // No page error: only the section's failure, which the console hears of once.
  expect(watch.problems).toEqual([expect.stringMatching(/^error: Error: A server-side exception occurred\n/)]);
  await page.close();
});

test("/examples/proto: __proto__,a on the document and after a client navigation, no page or hydration error", async () => {
  const { page, watch } = await open("/examples/proto");
  expect(await page.textContent("#proto")).toBe("__proto__,a");
  await page.getByRole("link", { name: "← All examples" }).click();
  await page.getByRole("link", { name: "A __proto__ key" }).click();
  await page.waitForURL("**/examples/proto");
  expect(await page.textContent("#proto")).toBe("__proto__,a");
  expect(watch.documents).toHaveLength(1);
  expect(watch.problems).toEqual([]);
  await page.close();
});
