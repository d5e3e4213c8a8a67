// retryingImport's bookkeeping; the browsers' own module maps are tested in Chromium (test/e2e/resilience).
import { expect, test } from "bun:test";
import { failedModuleUrl, retryingImport } from "../../src/runtime/retry-import.ts";

test("a success is kept: the module is imported once however often it is asked for", async () => {
  let calls = 0;
  const load = retryingImport(async () => ({ n: ++calls }));
  const [a, b] = await Promise.all([load(), load()]);
  expect(await load()).toBe(a);
  expect(b).toBe(a);
  expect(calls).toBe(1);
});

test("a failure is forgotten: the next call imports again, and a failure that names no URL is rethrown", async () => {
  let calls = 0;
  const load = retryingImport(async () => {
    if (++calls < 3) throw new TypeError("Importing a module script failed.");
    return "module";
  });
  await expect(load()).rejects.toThrow("Importing a module script failed.");
  await expect(load()).rejects.toThrow("Importing a module script failed.");
  expect(await load()).toBe("module");
  expect(calls).toBe(3);
});

test("the failed module's URL, as Chromium and Firefox name it; none from Safari's message", () => {
  const url = "https://example.test/assets/chunk-ne7h9qeg.js";
  expect(failedModuleUrl(new TypeError(`Failed to fetch dynamically imported module: ${url}`))).toBe(url);
  expect(failedModuleUrl(new TypeError(`error loading dynamically imported module: ${url}`))).toBe(url);
  expect(failedModuleUrl(new TypeError("Importing a module script failed."))).toBeUndefined();
  expect(failedModuleUrl(undefined)).toBeUndefined();
});
