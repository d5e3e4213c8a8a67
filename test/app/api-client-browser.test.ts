// /examples/api-client in Chromium: the component loads the entries and signs the guestbook through apiClient, on
// the page's origin with the browser's own Origin and Sec-Fetch-Site, and shows the API's 422 fields in place.
import { expect, test } from "bun:test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();

test("signing through the API: a JSON post from the page's origin, the entry's link, the entry in the list", async () => {
  const { page, watch } = await chromium.open("/examples/api-client");
  await page.locator('.entries:not([aria-busy="true"])').waitFor({ state: "attached" });
  await page.fill('input[name="name"]', "Chromium");
  await page.fill('textarea[name="message"]', "through Eden");
  const [post] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/guestbook"),
    page.getByRole("button", { name: "Sign through the API" }).click(),
  ]);
  const headers = await post.allHeaders();
  expect({ origin: headers.origin, site: headers["sec-fetch-site"], type: headers["content-type"] }).toEqual({
    origin: chromium.served.origin,
    site: "same-origin",
    type: "application/json",
  });
  expect(JSON.parse(post.postData()!)).toEqual({ name: "Chromium", message: "through Eden" });
  const signed = page.locator(".signed a");
  await signed.waitFor();
  const id = Number((await signed.getAttribute("href"))!.split("/").at(-1));
  await page.getByText("Chromium: through Eden").waitFor();
  expect(await signed.textContent()).toBe(`#${id}`);
  // The form was emptied for the next entry.
  expect(await page.inputValue('input[name="name"]')).toBe("");
  expect(watch.documents).toHaveLength(1);
  expect(watch.problems).toEqual([]);
  await page.close();
});

test("empty fields: the API's 422 shows each field's message beside it, and the entry is not added", async () => {
  const { page, watch } = await chromium.open("/examples/api-client");
  await page.locator('.entries:not([aria-busy="true"])').waitFor({ state: "attached" });
  const before = await page.locator(".entries li").count();
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/api/guestbook"),
    page.getByRole("button", { name: "Sign through the API" }).click(),
  ]);
  expect(answer.status()).toBe(422);
  await page.getByText("Name is required").waitFor();
  await page.getByText("Message is required").waitFor();
  expect(await page.getAttribute('input[name="name"]', "aria-invalid")).toBe("true");
  expect(await page.locator(".entries li").count()).toBe(before);
  // The one problem is the browser's own note of a 4xx answer.
  expect(watch.problems).toEqual([expect.stringMatching(/^error: Failed to load resource: .*422/)]);
  await page.close();
});
