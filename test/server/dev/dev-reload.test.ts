// dev-reload.test.ts: the development pieces of `bun run dev`: the event stream, the script in pages, the
// build-error page, stylesheet rebuilds that reuse what has not changed, and saves handled in batches.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import type { ClientAssets } from "../../../src/server/assets/assets.ts";
import { createDevClient, stylesSourceKey } from "../../../src/server/dev/dev-client.ts";
import { clientBundles } from "../../../src/server/dev/client-bundle.ts";
import { DEV_EVENTS_PATH, describeError, reloadScript } from "../../../src/server/dev/dev-page.ts";
import {
  clientFailurePage,
  createDevReload,
  devReloadPlugin,
  type DevReload,
} from "../../../src/server/dev/dev-reload.ts";
import { createEditQueue } from "../../../src/server/dev/edit-queue.ts";
import { lazyPage } from "../../../src/runtime/lazy-page.ts";
import { readEvents, received, states } from "../../support/dev-events.ts";
import { rawExchange } from "../../support/raw-http.ts";
import { changes, until } from "../../support/until.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const CSP = "script-src 'nonce-abc123' 'strict-dynamic'; style-src 'self'; img-src 'self'";

function devApp(reload: DevReload, { idleTimeout = 30, styleSources = [] as string[] } = {}) {
  const app = new Elysia()
    .use(devReloadPlugin(reload, { styleSources: () => styleSources }))
    .get(
      "/page",
      () =>
        new Response("<!doctype html><p>page</p>", {
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP },
        }),
    )
    .get("/data.json", () => Response.json({ ok: true }))
    .get("/assets/app.js", () => new Response("console.log(1)", { headers: { "content-type": "text/javascript" } }));
  app.listen({ hostname: "127.0.0.1", port: 0, idleTimeout });
  cleanups.push(
    () => app.stop(true),
    () => reload.close(),
  );
  return { app, origin: `http://127.0.0.1:${app.server!.port}` };
}

describe("the event stream", () => {
  test("announces the state at once and after every change; the version changes only when pages must reload", async () => {
    const reload = createDevReload();
    const { origin } = devApp(reload);
    const res = await fetch(`${origin}${DEV_EVENTS_PATH}`);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const reader = res.body!.getReader();
    const first = reload.state;
    let text = await readEvents(reader, received(1));
    expect(text).toStartWith("retry: 100\n");
    expect(states(text)).toEqual([first]);
    // An edit hot updates carry: open pages keep their version; error pages see the update change.
    reload.ready();
    expect(reload.state.version).toBe(first.version);
    expect(reload.state.update).not.toBe(first.update);
    text = await readEvents(reader, received(2), text);
    expect(states(text)[1]).toEqual(reload.state);
    // One only the server sees, and a failure the browser does not show: every page reloads.
    reload.ready({ reload: true });
    reload.fail({ title: "broken", detail: "x" }, { reload: true });
    text = await readEvents(reader, received(4), text);
    const versions = states(text).map((s) => s.version);
    expect(versions[1]).toBe(first.version);
    expect(new Set(versions).size).toBe(3);
    expect(states(text)[3]).toEqual(reload.state);
    await reader.cancel();
  });

  test("maps every stylesheet URL a page may link to its newest build, and an undone edit to nothing", () => {
    const reload = createDevReload();
    reload.ready({ styles: { "/assets/a-1.css": "/assets/a-2.css" } });
    reload.ready({ styles: { "/assets/a-2.css": "/assets/a-3.css", "/assets/b-1.css": "/assets/b-2.css" } });
    expect(reload.state.styles).toEqual({
      "/assets/a-1.css": "/assets/a-3.css",
      "/assets/a-2.css": "/assets/a-3.css",
      "/assets/b-1.css": "/assets/b-2.css",
    });
    reload.ready({ styles: { "/assets/a-3.css": "/assets/a-1.css" } });
    expect(reload.state.styles).toEqual({
      "/assets/a-2.css": "/assets/a-1.css",
      "/assets/a-3.css": "/assets/a-1.css",
      "/assets/b-1.css": "/assets/b-2.css",
    });
  });

  test("a nudge changes the update and nothing else: error pages reload, pages with hot updates stay", () => {
    const reload = createDevReload();
    reload.fail({ title: "broken", detail: "x" });
    const before = reload.state;
    reload.nudge();
    expect(reload.state.update).not.toBe(before.update);
    expect({ ...reload.state, update: before.update }).toEqual(before);
    expect(reload.failure).toEqual({ title: "broken", detail: "x" });
  });

  test("two processes never share a version, so a restart always reloads the page", () => {
    expect(createDevReload().state.version).not.toBe(createDevReload().state.version);
  });

  test("stays open past the server's idle timeout", async () => {
    // A heartbeat far beyond the test: only the per-request timeout keeps the stream open here.
    const reload = createDevReload({ heartbeatMs: 60_000 });
    const { app, origin } = devApp(reload, { idleTimeout: 1 });
    const reader = (await fetch(`${origin}${DEV_EVENTS_PATH}`)).body!.getReader();
    const text = await readEvents(reader, received(1));
    // A keep-alive connection that goes quiet after the stream did: once the server has closed it for being
    // idle (Bun looks every few seconds), an idle stream would have been cut too.
    const quiet = await rawExchange(app.server!.port!, "GET /data.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 15_000);
    expect(quiet).toMatchObject({ status: 200, closed: true });
    reload.ready();
    expect(states(await readEvents(reader, received(2), text))[1]).toEqual(reload.state);
    await reader.cancel();
  });

  test("sends a heartbeat while nothing changes", async () => {
    const reload = createDevReload({ heartbeatMs: 20 });
    const { origin } = devApp(reload);
    const reader = (await fetch(`${origin}${DEV_EVENTS_PATH}`)).body!.getReader();
    await readEvents(reader, /: heartbeat\n\n/);
    await reader.cancel();
  });
});

describe("pages in development", () => {
  test("an HTML page ends with the dev script, under the page's CSP nonce", async () => {
    const reload = createDevReload();
    const { origin } = devApp(reload);
    const res = await fetch(`${origin}/page`);
    const html = await res.text();
    expect(html).toStartWith("<!doctype html><p>page</p>");
    expect(html).toEndWith("</script>");
    expect(html).toContain(`<script nonce="abc123">`);
    expect(html).toContain(JSON.stringify(reload.state.version));
    expect(html).toContain(JSON.stringify(DEV_EVENTS_PATH));
    expect(res.headers.get("content-security-policy")).toBe(CSP);
  });

  test("the pages' style-src lets in what the dev server adds (Bun's error overlay), and nothing more", async () => {
    const { origin } = devApp(createDevReload(), { styleSources: ["'sha256-abc='"] });
    const res = await fetch(`${origin}/page`);
    expect(res.headers.get("content-security-policy")).toBe(
      "script-src 'nonce-abc123' 'strict-dynamic'; style-src 'self' 'unsafe-hashes' 'sha256-abc='; img-src 'self'",
    );
  });

  test("anything else is left alone", async () => {
    const { origin } = devApp(createDevReload());
    expect(await (await fetch(`${origin}/data.json`)).json()).toEqual({ ok: true });
    expect(await (await fetch(`${origin}/assets/app.js`)).text()).toBe("console.log(1)");
  });

  test("while the build is broken every page is the error page; assets and the stream still answer", async () => {
    const reload = createDevReload();
    const { origin } = devApp(reload);
    reload.fail({ title: "The code does not build", detail: "src/a.tsx:1:5 <b>Unexpected ;</b>" });
    for (const path of ["/page", "/data.json", "/no/route"]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toContain("The code does not build");
      expect(html).toContain("src/a.tsx:1:5 &lt;b&gt;Unexpected ;&lt;/b&gt;");
      // It reloads on the next change of any kind.
      expect(html).toContain(JSON.stringify(reload.state.update));
    }
    expect(await (await fetch(`${origin}/assets/app.js`)).text()).toBe("console.log(1)");
    const events = await fetch(`${origin}${DEV_EVENTS_PATH}`);
    expect(events.status).toBe(200);
    await events.body!.cancel();

    reload.ready();
    expect((await fetch(`${origin}/page`)).status).toBe(200);
  });
});

describe("a client that does not build", () => {
  /** Bun's development server as clientBundles reads it: its page for the client shell, failing until `fix()`. */
  function bunShell() {
    let ok = false;
    let asked = 0;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        const { pathname } = new URL(request.url);
        if (pathname === "/_bun/client/entry.js") return new Response('h("bun-hmr",{style:"display:none"})');
        asked++;
        return ok
          ? new Response('<!doctype html><script type="module" src="/_bun/client/entry.js"></script>', {
              headers: { "content-type": "text/html" },
            })
          : new Response("<!doctype html><title>Bun - Build Failed</title>", {
              status: 500,
              headers: { "content-type": "text/html" },
            });
      },
    });
    cleanups.push(() => server.stop(true));
    let told = 0;
    const fixes = changes();
    const bundles = clientBundles(() => server.url, { onFixed: () => (told++, fixes.changed()) });
    return { bundles, told: () => told, fixes, fix: () => void (ok = true), asked: () => asked };
  }

  test("Bun's page goes out with the script that reloads it on the next event, for the state it was served with", async () => {
    const reload = createDevReload();
    const { bundles } = bunShell();
    const bundle = await bundles.current();
    if (bundle.ok) throw new Error("the shell was expected to fail");
    const page = clientFailurePage(bundle.errorPage, reload.state);
    expect(page.status).toBe(500);
    const html = await page.text();
    expect(html).toStartWith("<!doctype html><title>Bun - Build Failed</title>");
    expect(html).toEndWith(`<script>${reloadScript(reload.state, { errorPage: true })}</script>`);
  });

  test("watchForFix() tells once that Bun builds the client again, however often it was asked to watch", async () => {
    const { bundles, told, fixes, fix, asked } = bunShell();
    bundles.watchForFix();
    bundles.watchForFix();
    await until(() => asked() >= 3, "Bun to be asked three times");
    bundles.watchForFix();
    expect(told()).toBe(0);
    fix();
    await fixes.until(() => told() > 0, "the fix to be told");
    // One poll all along: each answer was asked for once (a second poll would have asked twice as often, and told twice).
    expect(asked()).toBeLessThanOrEqual(4);
    expect(await bundles.current()).toEqual({ ok: true, url: "/_bun/client/entry.js" });
    expect(told()).toBe(1);
  });
});

describe("describeError", () => {
  test("gives the file, line, column and code frame of a syntax error, relative to the project", async () => {
    const root = await tempDir("brisk-syntax-");
    await writeFile(join(root, "broken.ts"), "export const ok = 1;\nexport const broken = ;\n");
    const error = await import(join(root, "broken.ts")).then(
      () => undefined,
      (e: unknown) => e,
    );
    const text = describeError(error, { root });
    expect(text).toContain("export const broken = ;");
    expect(text).toContain("at broken.ts:2:");
    expect(text).not.toContain(root);
    expect(text).not.toContain("\u001b[");
  });

  test("describes each error of an AggregateError, as a failed build throws", () => {
    const text = describeError(
      new AggregateError([new Error("first problem"), new Error("second problem")], "client build failed"),
    );
    expect(text).toContain("first problem");
    expect(text).toContain("second problem");
  });
});

describe("createDevClient", () => {
  function fakeAssets(key: string): ClientAssets {
    return {
      manifest: { buildId: key, styles: { "styles.css": `styles-${key}.css` } } as unknown as ClientAssets["manifest"],
      entryUrl: "/assets/",
      forMatch: () => ({ css: [], js: [] }),
      get: () => undefined,
      publicFiles: { find: () => undefined },
    };
  }

  async function harness(dir?: string) {
    const state = { key: "k1", builds: 0, fail: false, entryUrl: "/_bun/client/client-1.js" };
    const importedDir = await tempDir("brisk-imported-");
    const client = createDevClient({
      dir: dir ?? (await tempDir("brisk-devclient-")),
      sourceKey: async () => state.key,
      build: async (outdir) => {
        state.builds++;
        await Bun.sleep(10);
        if (state.fail) throw new Error("syntax error");
        await writeFile(join(outdir, "id"), state.key);
        await writeFile(join(outdir, "styles.css.map"), "{}");
      },
      load: (outdir) => fakeAssets(readFileSync(join(outdir, "id"), "utf8")),
      entryUrl: () => state.entryUrl,
      importedDir,
      buildId: "dev-1",
    });
    return { client, state, importedDir };
  }

  test("builds when the sources changed, and only then, and names each stylesheet that changed", async () => {
    const { client, state } = await harness();
    expect(await client.rebuild()).toMatchObject({ ok: true, outcome: "built", styles: {} });
    expect(await client.rebuild()).toMatchObject({ ok: true, outcome: "unchanged", styles: {} });
    state.key = "k2";
    expect(await client.rebuild()).toMatchObject({
      ok: true,
      outcome: "built",
      styles: { "/assets/styles-k1.css": "/assets/styles-k2.css" },
    });
    expect(state.builds).toBe(2);
    expect(client.assets.manifest.styles).toEqual({ "styles.css": "styles-k2.css" });
  });

  test("serves the script Bun's development server names now, under one build id whatever the stylesheets do", async () => {
    const { client, state } = await harness();
    await client.rebuild();
    expect(client.assets.entryUrl).toBe("/_bun/client/client-1.js");
    state.entryUrl = "/_bun/client/client-2.js";
    state.key = "k2";
    await client.rebuild();
    expect(client.assets.entryUrl).toBe("/_bun/client/client-2.js");
    expect(client.assets.manifest.buildId).toBe("dev-1");
  });

  test("serves the source maps beside the build and the files components import, and nothing else", async () => {
    const { client, importedDir } = await harness();
    await client.rebuild();
    await writeFile(join(importedDir, "logo-abc123.svg"), "<svg/>");
    expect(client.assets.get("styles.css.map")?.type).toStartWith("application/json");
    const logo = client.assets.get("logo-abc123.svg");
    expect(new TextDecoder().decode(logo?.body)).toBe("<svg/>");
    expect(logo?.type).toStartWith("image/svg+xml");
    expect(client.assets.get("id")).toBeUndefined();
    expect(client.assets.get("../id")).toBeUndefined();
  });

  test("a failed build keeps the last good one serving", async () => {
    const { client, state } = await harness();
    await client.rebuild();
    state.key = "k2";
    state.fail = true;
    expect((await client.rebuild()).ok).toBe(false);
    expect(client.assets.manifest.styles).toEqual({ "styles.css": "styles-k1.css" });
  });

  test("changes during a build make exactly one more build", async () => {
    const { client, state } = await harness();
    const results = await Promise.all([client.rebuild(), client.rebuild(), client.rebuild(), client.rebuild()]);
    expect(state.builds).toBe(1);
    expect(results.every((r) => r.ok)).toBe(true);
    state.key = "k2";
    const first = client.rebuild();
    state.key = "k3";
    await Promise.all([first, client.rebuild(), client.rebuild()]);
    expect(state.builds).toBe(3);
    expect(client.assets.manifest.styles).toEqual({ "styles.css": "styles-k3.css" });
  });

  test("after a restart, the previous process's build is reused when the sources are the same", async () => {
    const dir = await tempDir("brisk-devclient-");
    const before = await harness(dir);
    await before.client.rebuild();
    const after = await harness(dir);
    expect(await after.client.rebuild()).toMatchObject({ ok: true, outcome: "reused" });
    expect(after.state.builds).toBe(0);
  });
});

describe("stylesSourceKey", () => {
  test("changes with the stylesheets, what they may use, the app's stylesheets and code-split pages and the build scripts; not with scripts under src", async () => {
    const root = await tempDir("brisk-key-");
    const write = (path: string, text: string) => Bun.write(join(root, path), text);
    await Promise.all([
      write("src/web/styles.css", "a"),
      write("src/web/logo.svg", "<svg/>"),
      write("src/web/page.tsx", "a"),
      write("src/server/create-app.ts", "b"),
      write("src/server/build/client-build.ts", "c"),
      write("package.json", "{}"),
    ]);
    const keys = new Set<string>();
    const key = async (styles = ["styles.css"]) => {
      const k = await stylesSourceKey(root, { styles, routes: [] });
      keys.add(k);
      return k;
    };
    const first = await key();
    await write("src/web/page.tsx", "a2");
    await write("src/server/create-app.ts", "b2");
    expect(await key()).toBe(first);
    await write("src/web/styles.css", "a2");
    await key();
    await write("src/web/logo.svg", "<svg></svg>");
    await key();
    await write("src/server/build/client-build.ts", "c2");
    await key();
    await key(["styles.css", "pages/lazy.css"]);
    // A code-split page the build has not seen needs its manifest entry.
    keys.add(
      await stylesSourceKey(root, {
        styles: ["styles.css"],
        routes: [{ path: "/lazy", component: lazyPage("lazy.tsx", async () => ({ default: () => null })) }],
      }),
    );
    expect(keys.size).toBe(6);
  });
});

describe("createEditQueue", () => {
  /** Whether `promise` has settled by the time everything already queued has run (its handler is held, or not). */
  const settledNow = (promise: Promise<unknown>) =>
    Promise.race([promise.then(() => true), new Promise<boolean>((r) => setImmediate(r, false))]);

  test("saves close together make one batch; settled() waits for every save so far", async () => {
    const batches: string[][] = [];
    const started = changes();
    let release = () => {};
    const queue = createEditQueue(async (files) => {
      batches.push(files);
      started.changed();
      await new Promise<void>((r) => (release = r));
    });
    queue.add("a.ts");
    queue.add("b.ts", "a.ts");
    const waiting = queue.settled();
    await started.until(() => batches.length > 0, "the first batch");
    expect(batches).toEqual([["a.ts", "b.ts"]]);
    // A save while that batch runs is handled in the next one, which settled() then waits for too.
    queue.add("c.ts");
    const later = queue.settled();
    release();
    await waiting;
    await started.until(() => batches.length > 1, "the second batch");
    expect(batches).toEqual([["a.ts", "b.ts"], ["c.ts"]]);
    expect(await settledNow(later)).toBe(false);
    release();
    await later;
    expect(await settledNow(queue.settled())).toBe(true);
  });

  test("a batch whose handler throws is shown, and does not stop the next", async () => {
    const handled: string[][] = [];
    const shown: unknown[] = [];
    const error = console.error;
    console.error = (e: unknown) => shown.push(e);
    try {
      const queue = createEditQueue(async (files) => {
        handled.push(files);
        if (files.includes("bad.ts")) throw new Error("bug");
      });
      queue.add("bad.ts");
      await queue.settled();
      queue.add("good.ts");
      await queue.settled();
    } finally {
      console.error = error;
    }
    expect(handled).toEqual([["bad.ts"], ["good.ts"]]);
    expect(shown).toHaveLength(1);
  });
});
