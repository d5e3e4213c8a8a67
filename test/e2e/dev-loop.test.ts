// dev-loop.test.ts: `bun run dev` in a copy of the project: edits reach the open page by themselves, and a
// syntax error is shown in the browser and the terminal until it is fixed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { hydrated, launchBrowser, watchPage, type PageWatch } from "../support/browser.ts";
import { freePort, serverEnv, start, waitForStatus, type Running } from "../support/process.ts";

const ROOT = resolve(import.meta.dir, "../..");
const HOME = "src/app/pages/Home.tsx";
const ENTRY = "src/brisk/client/entry-client.tsx";
const SERVER_ONLY = "src/brisk/server/app.ts";

let copy: string;
let dev: Running;
let origin: string;
let browser: Browser;
let page: Page;
let watch: PageWatch;

/** Edits a file of the copy, never of the project. */
async function edit(file: string, change: (text: string) => string): Promise<void> {
  const path = join(copy, file);
  const before = await readFile(path, "utf8");
  const after = change(before);
  if (after === before) throw new Error(`the edit changed nothing in ${file}`);
  await writeFile(path, after);
}

/**
 * Saves an edit and waits until the open page shows `selector` with `text` and has hydrated, without the
 * test reloading it. Resolves with the milliseconds from the save: the save → reloaded page time.
 */
async function saveAndSee(file: string, change: (text: string) => string, selector: string, text: string): Promise<number> {
  const saved = performance.now();
  await edit(file, change);
  await page.locator(selector, { hasText: text }).waitFor({ timeout: 20_000 });
  await hydrated(page);
  return Math.round(performance.now() - saved);
}

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), "brisk-dev-"));
  for (const entry of ["src", "scripts", "package.json", "tsconfig.json", "bunfig.toml"]) {
    await cp(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  dev = start(["bun", "run", "dev"], { cwd: copy, env: serverEnv({ PORT: String(port), HOST: "127.0.0.1" }) });
  await waitForStatus(`${origin}/healthz`, { timeoutMs: 30_000 });
  browser = await launchBrowser();
  page = await browser.newPage();
  watch = watchPage(page);
  await page.goto(`${origin}/`);
  await hydrated(page);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await dev?.kill();
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe("bun run dev", () => {
  test("serves the page in development, with the live-reload script and no hydration problems", async () => {
    const html = await (await fetch(`${origin}/`)).text();
    expect(html).toContain("/__dev/events");
    const config = await page.evaluate(() => window.__BRISK__.config.mode);
    expect(config).toBe("development");
    // The script removes itself before React hydrates the document.
    expect(await page.locator("script:has-text('__dev/events')").count()).toBe(0);
    expect(watch.problems.filter((p) => /hydrat|did not match|CSP/i.test(p))).toEqual([]);
  });

  test("an edit to a page component (server and client) shows in the open page without a manual reload", async () => {
    const ms = await saveAndSee(HOME, (t) => t.replace("<h1>Brisk</h1>", "<h1>Brisk, edited</h1>"), "h1", "Brisk, edited");
    console.log(`save → reloaded page, server and client file (${HOME}): ${ms} ms`);
    expect(watch.problems.filter((p) => /hydrat|did not match/i.test(p))).toEqual([]);
  });

  test("an edit to a client-only file rebuilds the client and reloads the page, without restarting the server", async () => {
    const restarts = dev.output().match(/brisk dev server:/g)!.length;
    const saved = performance.now();
    await edit(ENTRY, (t) => `${t}\n(window as unknown as { devMarker: string }).devMarker = "client edit";\n`);
    await page.waitForFunction(() => (window as unknown as { devMarker?: string }).devMarker === "client edit", null, {
      timeout: 20_000,
    });
    await hydrated(page);
    const ms = Math.round(performance.now() - saved);
    console.log(`save → reloaded page, client-only file (${ENTRY}): ${ms} ms`);
    expect(dev.output().match(/brisk dev server:/g)!.length).toBe(restarts);
  });

  test("an edit to a server-only file restarts the server, reuses the client build, and reloads the page", async () => {
    await page.evaluate(() => ((window as unknown as { beforeEdit: boolean }).beforeEdit = true));
    const saved = performance.now();
    await edit(SERVER_ONLY, (t) => t.replace('new Response("ok\\n"', 'new Response("ok, edited\\n"'));
    await page.waitForFunction(() => !(window as unknown as { beforeEdit?: boolean }).beforeEdit, null, { timeout: 20_000 });
    await hydrated(page);
    const ms = Math.round(performance.now() - saved);
    console.log(`save → reloaded page, server-only file (${SERVER_ONLY}): ${ms} ms`);
    expect(await (await fetch(`${origin}/healthz`)).text()).toBe("ok, edited\n");
    expect(dev.output()).toMatch(/client reused in \d+ ms/);
  });

  test("a syntax error is shown in the browser and the terminal, and the page recovers once it is fixed", async () => {
    await edit(HOME, (t) => t.replace("<h1>Brisk, edited</h1>", "<h1>Brisk {</h1>"));
    const error = page.locator("#dev-error");
    await error.waitFor({ timeout: 20_000 });
    const shown = await error.innerText();
    expect(shown).toContain(`${HOME}:`);
    expect(shown).toContain("<h1>Brisk {</h1>");
    const terminal = await dev.waitForOutput(/error: .*\n\s+at src\/app\/pages\/Home\.tsx:\d+:\d+/);
    expect(terminal).toContain("The server code does not load");

    const ms = await saveAndSee(HOME, (t) => t.replace("<h1>Brisk {</h1>", "<h1>Brisk, fixed</h1>"), "h1", "Brisk, fixed");
    expect(await error.count()).toBe(0);
    console.log(`syntax error fixed → recovered page: ${ms} ms`);
  });

  test("a syntax error in a server-only file is shown too, and the page recovers", async () => {
    await edit(SERVER_ONLY, (t) => `${t}\nexport const broken = ;\n`);
    await page.locator("#dev-error", { hasText: "The server code does not load" }).waitFor({ timeout: 20_000 });
    expect(await page.locator("#dev-error").innerText()).toContain(`${SERVER_ONLY}:`);
    await dev.waitForOutput(/error: Unexpected ;\n\s+at src\/brisk\/server\/app\.ts:\d+:\d+/);
    await edit(SERVER_ONLY, (t) => t.replace("\nexport const broken = ;\n", ""));
    await page.locator("h1", { hasText: "Brisk, fixed" }).waitFor({ timeout: 20_000 });
    await hydrated(page);
  });

  test("a syntax error in a client-only file is shown too, and the page recovers", async () => {
    const original = await readFile(join(copy, ENTRY), "utf8");
    await writeFile(join(copy, ENTRY), `${original}\nexport const broken = ;\n`);
    const error = page.locator("#dev-error", { hasText: "The client does not build" });
    await error.waitFor({ timeout: 20_000 });
    expect(await error.innerText()).toContain(`${ENTRY}:`);
    await dev.waitForOutput(/The client does not build[\s\S]*error: Unexpected ;/);

    await writeFile(join(copy, ENTRY), original);
    await page.locator("h1", { hasText: "Brisk, fixed" }).waitFor({ timeout: 20_000 });
    await hydrated(page);
  });
});
