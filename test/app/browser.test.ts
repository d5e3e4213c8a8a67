// The examples in Chromium: the pages hydrate without a console problem, links navigate without a document
// load, the guestbook's form and the session's sign-in work in place, and a component that throws in the
// browser shows the app's error page.
import { expect, test } from "bun:test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();
const { open } = chromium;

test.each([
  "/",
  "/examples/stream",
  "/examples/search?q=brisk",
  "/examples/lazy",
  "/examples/guestbook",
  "/examples/session",
  "/examples/cached",
  "/examples/nested",
  "/examples/nested/items/1",
])("%s hydrates without a console problem", async (path) => {
  const { page, watch } = await open(path);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("a link on the home page navigates in place: one document load, the example's page shown", async () => {
  const { page, watch } = await open("/");
  await page.click('a[href="/examples/search?q=brisk"]');
  await page.waitForURL(`${chromium.served.origin}/examples/search?q=brisk`);
  await page.getByRole("button", { name: "Search" }).waitFor();
  expect(watch.documents).toEqual([`${chromium.served.origin}/`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("signing the guestbook in place: the entry is listed first, without a document load", async () => {
  const { page, watch } = await open("/examples/guestbook");
  const message = `from Chromium ${crypto.randomUUID()}`;
  await page.fill('input[name="name"]', "Browser");
  await page.fill('textarea[name="message"]', message);
  await page.click('button[type="submit"]');
  await page.locator("ol.entries li").first().filter({ hasText: message }).waitFor();
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/guestbook`]);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("signing in on the session page leads to the account, which names the visitor", async () => {
  const { page, watch } = await open("/examples/session");
  await page.fill('input[name="name"]', "Grace");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${chromium.served.origin}/examples/account`);
  await page.getByText("Grace").first().waitFor();
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("a component that throws in the browser shows the app's error page", async () => {
  const { page, watch } = await open("/examples/client-error");
  await page.getByRole("button", { name: "Throw an error" }).click();
  await page.getByRole("heading", { name: "Application error" }).waitFor();
  expect(watch.problems.join("\n")).toContain("Example failure in the browser");
  await page.close();
});
