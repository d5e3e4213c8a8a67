// dev-reload.test.ts: the development pieces of `bun run dev`: the reload stream, the script in pages,
// the build-error page, and client rebuilds that reuse what has not changed.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import type { ClientAssets } from "../../src/brisk/server/assets.ts";
import { clientSourceKey, createDevClient } from "../../src/brisk/dev/dev-client.ts";
import { DEV_EVENTS_PATH, describeError } from "../../src/brisk/dev/dev-page.ts";
import { createDevReload, devReloadPlugin, type DevReload } from "../../src/brisk/dev/dev-reload.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function devApp(reload: DevReload, idleTimeout = 30) {
  const app = new Elysia()
    .use(devReloadPlugin(reload))
    .get("/page", () => new Response("<!doctype html><p>page</p>", {
      headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "script-src 'nonce-abc123' 'strict-dynamic'" },
    }))
    .get("/data.json", () => Response.json({ ok: true }))
    .get("/assets/app.js", () => new Response("console.log(1)", { headers: { "content-type": "text/javascript" } }));
  app.listen({ hostname: "127.0.0.1", port: 0, idleTimeout });
  cleanups.push(() => app.stop(true), () => reload.close());
  return { app, origin: `http://127.0.0.1:${app.server!.port}` };
}

/** Reads server-sent event text until `until` matches what has arrived. */
async function readEvents(reader: ReadableStreamDefaultReader<Uint8Array>, until: RegExp, sofar = ""): Promise<string> {
  const decoder = new TextDecoder();
  while (!until.test(sofar)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the event stream ended after ${JSON.stringify(sofar)}`);
    sofar += decoder.decode(value, { stream: true });
  }
  return sofar;
}

describe("the reload event stream", () => {
  test("announces the version at once and again after every rebuild or failure", async () => {
    const reload = createDevReload();
    const { origin } = devApp(reload);
    const res = await fetch(`${origin}${DEV_EVENTS_PATH}`);
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const reader = res.body!.getReader();
    const first = reload.version;
    let text = await readEvents(reader, new RegExp(`data: ${first}\\n\\n`));
    expect(text).toStartWith("retry: 100\n");
    reload.ready();
    expect(reload.version).not.toBe(first);
    text = await readEvents(reader, new RegExp(`data: ${reload.version}\\n\\n`), text);
    reload.fail({ title: "broken", detail: "x" });
    await readEvents(reader, new RegExp(`data: ${reload.version}\\n\\n`), text);
    await reader.cancel();
  });

  test("two processes never share a version, so a restart always reloads the page", () => {
    expect(createDevReload().version).not.toBe(createDevReload().version);
  });

  test("stays open past the server's idle timeout", async () => {
    // A heartbeat far beyond the test: only the per-request timeout keeps the stream open here.
    const reload = createDevReload({ heartbeatMs: 60_000 });
    const { origin } = devApp(reload, 1);
    const reader = (await fetch(`${origin}${DEV_EVENTS_PATH}`)).body!.getReader();
    const text = await readEvents(reader, /data: /);
    // Bun checks idle sockets every few seconds: with idleTimeout 1 an idle stream is cut within about 4 s.
    await Bun.sleep(5_500);
    reload.ready();
    await readEvents(reader, new RegExp(`data: ${reload.version}\\n\\n`), text);
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
  test("an HTML page ends with the reload script, under the page's CSP nonce", async () => {
    const reload = createDevReload();
    const { origin } = devApp(reload);
    const html = await (await fetch(`${origin}/page`)).text();
    expect(html).toStartWith("<!doctype html><p>page</p>");
    expect(html).toEndWith("</script>");
    expect(html).toContain(`<script nonce="abc123">`);
    expect(html).toContain(JSON.stringify(reload.version));
    expect(html).toContain(JSON.stringify(DEV_EVENTS_PATH));
  });

  test("anything else is left alone", async () => {
    const { origin } = devApp(createDevReload());
    expect(await (await fetch(`${origin}/data.json`)).json()).toEqual({ ok: true });
    expect(await (await fetch(`${origin}/assets/app.js`)).text()).toBe("console.log(1)");
  });

  test("while the build is broken every page is the error page; assets and the stream still answer", async () => {
    const reload = createDevReload();
    const { origin } = devApp(reload);
    reload.fail({ title: "The client does not build", detail: "src/a.tsx:1:5 <b>Unexpected ;</b>" });
    for (const path of ["/page", "/data.json", "/no/route"]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toContain("The client does not build");
      expect(html).toContain("src/a.tsx:1:5 &lt;b&gt;Unexpected ;&lt;/b&gt;");
      expect(html).toContain(JSON.stringify(reload.version));
    }
    expect(await (await fetch(`${origin}/assets/app.js`)).text()).toBe("console.log(1)");
    const events = await fetch(`${origin}${DEV_EVENTS_PATH}`);
    expect(events.status).toBe(200);
    await events.body!.cancel();

    reload.ready();
    expect((await fetch(`${origin}/page`)).status).toBe(200);
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
    const text = describeError(new AggregateError([new Error("first problem"), new Error("second problem")], "client build failed"));
    expect(text).toContain("first problem");
    expect(text).toContain("second problem");
  });
});

describe("createDevClient", () => {
  function fakeAssets(buildId: string): ClientAssets {
    return {
      manifest: { buildId } as ClientAssets["manifest"],
      entryUrl: `/assets/entry-${buildId}.js`,
      forRoute: () => ({ css: [], js: [] }),
      get: () => undefined,
      publicFiles: { find: () => undefined },
    };
  }

  async function harness(dir?: string) {
    const state = { key: "k1", builds: 0, fail: false };
    const client = createDevClient({
      dir: dir ?? (await tempDir("brisk-devclient-")),
      sourceKey: async () => state.key,
      build: async (outdir) => {
        state.builds++;
        await Bun.sleep(10);
        if (state.fail) throw new Error("syntax error");
        await writeFile(join(outdir, "id"), `${state.key}`);
      },
      load: (outdir) => fakeAssets(require("node:fs").readFileSync(join(outdir, "id"), "utf8")),
    });
    return { client, state };
  }

  test("builds when the sources changed, and only then", async () => {
    const { client, state } = await harness();
    expect(await client.rebuild()).toMatchObject({ ok: true, outcome: "built", buildId: "k1" });
    expect(await client.rebuild()).toMatchObject({ ok: true, outcome: "unchanged" });
    state.key = "k2";
    expect(await client.rebuild()).toMatchObject({ ok: true, outcome: "built", buildId: "k2" });
    expect(state.builds).toBe(2);
    expect(client.assets.entryUrl).toBe("/assets/entry-k2.js");
  });

  test("a failed build keeps the last good one serving", async () => {
    const { client, state } = await harness();
    await client.rebuild();
    state.key = "k2";
    state.fail = true;
    const result = await client.rebuild();
    expect(result.ok).toBe(false);
    expect(client.assets.manifest.buildId).toBe("k1");
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
    expect(client.assets.manifest.buildId).toBe("k3");
  });

  test("after a restart, the previous process's build is reused when the sources are the same", async () => {
    const dir = await tempDir("brisk-devclient-");
    const before = await harness(dir);
    await before.client.rebuild();
    const after = await harness(dir);
    expect(await after.client.rebuild()).toMatchObject({ ok: true, outcome: "reused", buildId: "k1" });
    expect(after.state.builds).toBe(0);
  });
});

describe("clientSourceKey", () => {
  test("changes with the client's sources and the build scripts, not with server-only files", async () => {
    const root = await tempDir("brisk-key-");
    const write = (path: string, text: string) => Bun.write(join(root, path), text);
    await Promise.all([write("src/app/page.tsx", "a"), write("src/brisk/server/app.ts", "b"), write("scripts/build-client.ts", "c"), write("package.json", "{}")]);
    const first = await clientSourceKey(root);
    await write("src/brisk/server/app.ts", "b2");
    expect(await clientSourceKey(root)).toBe(first);
    await write("scripts/build-client.ts", "c2");
    const second = await clientSourceKey(root);
    expect(second).not.toBe(first);
    await write("src/app/page.tsx", "a2");
    expect(await clientSourceKey(root)).not.toBe(second);
  });
});
