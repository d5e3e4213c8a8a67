// /examples/preview in Chromium: the HTML a route without a page made shows when loaded, but no page may frame
// it, not even this site's own (its CSP's frame-ancestors 'none', as for a rendered page).
import { expect, test } from "bun:test";
import { useChromium } from "./chromium.ts";

const chromium = useChromium();

test("it shows on its own, and a frame of it on this site's home page is refused", async () => {
  const page = await chromium.browser.newPage();
  await page.goto(`${chromium.served.origin}/examples/preview?name=Ada`);
  expect(await page.textContent("#preview-name")).toBe("Ada");
  await page.goto(`${chromium.served.origin}/`);
  const framed = page.waitForEvent("framenavigated", (frame) => frame !== page.mainFrame());
  // A frame the home page's own CSP lets load (default-src 'self'): only the preview's own headers refuse it.
  await page.evaluate(() => {
    const frame = document.createElement("iframe");
    frame.src = "/examples/preview?name=Framed";
    document.body.append(frame);
  });
  const frame = await framed;
  expect(frame.url()).toStartWith("chrome-error://");
  expect(await frame.$("#preview-name")).toBeNull();
  await page.close();
});
