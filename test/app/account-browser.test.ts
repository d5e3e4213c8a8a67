// The examples' guarded account area in Chromium, with JavaScript and without: sign in, add a note, see it; a
// visitor whose session ends while the page is open meets the 401 page on the next client navigation inside the
// area (page data that keeps the layout still runs its guard), with no note of theirs shown; and a signed-out
// visit to a page of the area goes to sign-in, which comes back to that page (`next`), with JavaScript or without.
import { expect, test } from "bun:test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();

test("with JavaScript: sign in, add a note in place; once the session is gone, the next click inside is the 401 page", async () => {
  const { page, watch } = await chromium.open("/examples/session");
  const name = `Reader ${crypto.randomUUID().slice(0, 8)}`;
  await page.fill('input[name="name"]', name);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${chromium.served.origin}/examples/account`);
  await page.getByText(`Signed in as ${name}`).waitFor();
  await page.getByRole("link", { name: "Notes", exact: true }).click();
  await page.waitForURL(`${chromium.served.origin}/examples/account/notes`);
  await page.fill('input[name="text"]', "bring the map");
  await page.getByRole("button", { name: "Add" }).click();
  await page.locator("#notes li", { hasText: "bring the map" }).waitFor();
  // The session ends (a sign-out in another tab, its age reached): the layout is kept on the next click.
  await page.context().clearCookies();
  await page.getByRole("link", { name: "Overview" }).click();
  await page.getByRole("heading", { name: /Sign-in required/ }).waitFor();
  expect(await page.locator("#account-name").count()).toBe(0);
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/session`]);
  await page.close();
});

test("without JavaScript: the same sign-in and note, by the browser's own form posts", async () => {
  const context = await chromium.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${chromium.served.origin}/examples/session`);
  await page.fill('input[name="name"]', "No Script");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${chromium.served.origin}/examples/account`);
  await page.goto(`${chromium.served.origin}/examples/account/notes`);
  await page.fill('input[name="text"]', "plain HTML works");
  await page.getByRole("button", { name: "Add" }).click();
  await page.locator("#notes li", { hasText: "plain HTML works" }).waitFor();
  // Signed out, the page sends the browser to sign in; the form's own post carries `next`, and signing in comes back.
  await context.clearCookies();
  await page.goto(`${chromium.served.origin}/examples/account/notes`);
  expect(page.url()).toBe(`${chromium.served.origin}/examples/session?next=%2Fexamples%2Faccount%2Fnotes`);
  await page.fill('input[name="name"]', "No Script");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${chromium.served.origin}/examples/account/notes`);
  await page.locator("#notes li", { hasText: "plain HTML works" }).waitFor();
  await context.close();
});

test("with JavaScript: a signed-out visit to the notes goes to sign-in, and signing in comes back to them in place", async () => {
  const { page, watch } = await chromium.open("/examples/account/notes");
  const signIn = `${chromium.served.origin}/examples/session?next=%2Fexamples%2Faccount%2Fnotes`;
  expect(page.url()).toBe(signIn);
  const name = `Returner ${crypto.randomUUID().slice(0, 8)}`;
  await page.fill('input[name="name"]', name);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${chromium.served.origin}/examples/account/notes`);
  await page.getByText(`Signed in as ${name}`).waitFor();
  await page.getByRole("heading", { name: "Your notes" }).waitFor();
  expect(watch.documents).toEqual([`${chromium.served.origin}/examples/account/notes`, signIn]);
  await page.close();
});
