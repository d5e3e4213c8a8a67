// Signing out in Chromium: the session cookie is `__Host-session`, the browser keeps it over the served loopback
// origin, and "Signed out" shows once after signing out, from the cookie the notice waits in, with no record made
// for it; after that page the browser holds no session cookie at all.
import { expect, test } from "bun:test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();

test("sign in, then sign out: 'Signed out' shows on the next page once, and no session cookie is left", async () => {
  const { page, watch } = await chromium.open("/examples/session");
  await page.fill('input[name="name"]', "Grace");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${chromium.served.origin}/examples/account`);
  expect((await page.context().cookies()).map(({ name, secure, path }) => ({ name, secure, path }))).toEqual([
    { name: "__Host-session", secure: true, path: "/" },
  ]);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(`${chromium.served.origin}/examples/session`);
  await expect(page.locator("#flash").textContent()).resolves.toBe("Signed out");
  // The notice was the session's last value: reading it expired the cookie.
  expect(await page.context().cookies()).toEqual([]);
  await page.reload();
  await page.locator('input[name="name"]').waitFor();
  expect(await page.locator("#flash").count()).toBe(0);
  expect(watch.problems).toEqual([]);
  await page.close();
});
