// The app's public/ folder at the site root: types, validators, 304s and 412s, HEAD, no way out of the folder (nor to
// its hidden files, nor along a symlink), names that need percent-encoding, and development picking up a new
// file without a restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createApp } from "../../../src/server/create-app.ts";
import { livePublicFiles, type PublicFiles } from "../../../src/server/assets/public-files.ts";
import { clientBuild } from "../../../src/server/testing/client.ts";
import { serveApp, type ServedApp } from "brisk/test";
import { clientAssets, FIXTURE, FIXTURE_APP_MODULE, loadApp, testConfig } from "../../support/app.ts";
import { rawExchange } from "../../support/raw-http.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
});

describe("public files from the build", () => {
  test("served at the root with their type, ETag, Last-Modified and a revalidating Cache-Control", async () => {
    const res = await t.request("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain;charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-z]+"$/);
    expect(Date.parse(res.headers.get("last-modified")!)).not.toBeNaN();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe("User-agent: *\nAllow: /\n");
    const nested = await t.request("/docs/info.json");
    expect(nested.headers.get("content-type")).toBe("application/json;charset=utf-8");
  });

  test("304 on a matching If-None-Match, or If-Modified-Since not older than the file", async () => {
    const first = await t.request("/robots.txt");
    const etag = first.headers.get("etag")!;
    const byTag = await t.request("/robots.txt", { headers: { "if-none-match": `"other", ${etag}` } });
    expect(byTag.status).toBe(304);
    expect(await byTag.text()).toBe("");
    const byDate = await t.request("/robots.txt", {
      headers: { "if-modified-since": first.headers.get("last-modified")! },
    });
    expect(byDate.status).toBe(304);
    const stale = await t.request("/robots.txt", { headers: { "if-none-match": '"other"' } });
    expect(stale.status).toBe(200);
  });

  test("HEAD has the headers and no body", async () => {
    const res = await t.request("/robots.txt", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeTruthy();
    expect(await res.text()).toBe("");
  });

  test("HEAD on a real socket says the GET's Content-Length", async () => {
    const app = createApp(testConfig(), await loadApp(), { assets: await clientAssets(), log: () => {} });
    app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const exchange = (method: string) =>
        rawExchange(
          app.server!.port!,
          `${method} /robots.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
        );
      const [get, head] = [await exchange("GET"), await exchange("HEAD")];
      expect(get.body.byteLength).toBeGreaterThan(0);
      expect(get.headers["content-length"]).toBe(String(get.body.byteLength));
      expect({ status: head.status, length: head.headers["content-length"], body: head.body.byteLength }).toEqual({
        status: 200,
        length: String(get.body.byteLength),
        body: 0,
      });
    } finally {
      await app.stop(true);
    }
  });

  test.each(["2030", "tomorrow", "Sun, 31 Feb 2094 08:49:37 GMT", "1767225600000"])(
    "a malformed If-Modified-Since (%p) is ignored: the file, 200",
    async (since) => {
      const res = await t.request("/robots.txt", { headers: { "if-modified-since": since } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("User-agent: *\nAllow: /\n");
    },
  );

  test.each(["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT"])(
    "If-Modified-Since in any HTTP-date form (%p) is read: before the file's time, 200",
    async (since) => {
      expect((await t.request("/robots.txt", { headers: { "if-modified-since": since } })).status).toBe(200);
    },
  );

  test("If-Match: 412 when it names no current tag, the file when it names its tag or `*`; HEAD alike", async () => {
    const etag = (await t.request("/robots.txt")).headers.get("etag")!;
    for (const method of ["GET", "HEAD"]) {
      const failed = await t.request("/robots.txt", { method, headers: { "if-match": '"nope"' } });
      expect(failed.status).toBe(412);
      expect(failed.headers.get("etag")).toBeNull();
      // If-Match compares strongly: a weak form of the tag is not it.
      expect((await t.request("/robots.txt", { method, headers: { "if-match": `W/${etag}` } })).status).toBe(412);
      for (const field of ["*", `"other", ${etag}`]) {
        const res = await t.request("/robots.txt", { method, headers: { "if-match": field } });
        expect(res.status).toBe(200);
        expect(res.headers.get("etag")).toBe(etag);
      }
    }
    expect(await (await t.request("/robots.txt", { headers: { "if-match": '"nope"' } })).text()).toStartWith(
      "precondition failed",
    );
    // A matching If-Match and a matching If-None-Match: the client's copy is current.
    expect((await t.request("/robots.txt", { headers: { "if-match": etag, "if-none-match": etag } })).status).toBe(304);
  });

  test("If-Unmodified-Since: 412 once the file changed after it, the file when it did not", async () => {
    const lastModified = (await t.request("/robots.txt")).headers.get("last-modified")!;
    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await t.request("/robots.txt", { headers: { "if-unmodified-since": before } })).status).toBe(412);
    expect(
      (await t.request("/robots.txt", { method: "HEAD", headers: { "if-unmodified-since": before } })).status,
    ).toBe(412);
    expect((await t.request("/robots.txt", { headers: { "if-unmodified-since": lastModified } })).status).toBe(200);
  });

  test("If-Modified-Since as an HTTP-date later than the file: 304", async () => {
    const res = await t.request("/robots.txt", { headers: { "if-modified-since": "Fri, 01 Jan 2100 00:00:00 GMT" } });
    expect(res.status).toBe(304);
  });

  test("no path leaves the folder: each is the not-found page", async () => {
    // A real socket: fetch would resolve the dots before sending.
    const app = createApp(testConfig(), await loadApp(), { assets: await clientAssets(), log: () => {} });
    app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const targets = [
        "/../package.json",
        "/docs/../../package.json",
        "/%2e%2e/package.json",
        "/docs/%2e%2e/%2e%2e/package.json",
        "/..%2fpackage.json",
        "//etc/passwd",
        "/docs",
      ];
      for (const target of targets) {
        const raw = await rawExchange(
          app.server!.port!,
          `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
        );
        expect({ target, status: raw.status }).toEqual({ target, status: 404 });
        expect(new TextDecoder().decode(raw.body)).not.toContain('"name": "brisk"');
      }
    } finally {
      await app.stop(true);
    }
  });
});

describe("public files in development", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "brisk-public-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("a file added or changed shows at once, with a new ETag", async () => {
    const app = createApp(testConfig(), await loadApp(), {
      assets: await clientAssets(),
      publicFiles: livePublicFiles(dir),
      log: () => {},
    });
    const get = () => app.handle(new Request("http://localhost/new.txt"));
    expect((await get()).status).toBe(404);
    await writeFile(join(dir, "new.txt"), "one");
    const first = await get();
    expect(await first.text()).toBe("one");
    await writeFile(join(dir, "new.txt"), "two");
    await utimes(join(dir, "new.txt"), new Date(), new Date(Date.now() + 5_000));
    const second = await get();
    expect(await second.text()).toBe("two");
    expect(second.headers.get("etag")).not.toBe(first.headers.get("etag"));
  });
});

/**
 * A public folder as a careless or hostile checkout has it: secrets beside the site's files, a symlink out of
 * the folder (to a file and to a folder), one inside it, `.well-known/`, and names that need percent-encoding.
 */
async function hostilePublicDir(): Promise<{ dir: string; outside: string }> {
  const root = await mkdtemp(join(tmpdir(), "brisk-public-hostile-"));
  const dir = join(root, "public");
  const outside = join(root, "outside");
  await mkdir(join(dir, ".git"), { recursive: true });
  await mkdir(join(dir, "docs"), { recursive: true });
  await mkdir(join(dir, ".well-known"), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, "secret.txt"), "PRIVATE-1 outside");
  await writeFile(join(dir, ".env"), "PRIVATE-2 DATABASE_URL=postgres://u:pw@db/x");
  await writeFile(join(dir, ".git", "config"), "PRIVATE-3 [remote]");
  await writeFile(join(dir, "docs", ".secret"), "PRIVATE-4 nested");
  await writeFile(join(dir, ".well-known", "security.txt"), "Contact: mailto:security@example.com");
  await writeFile(join(dir, "site.txt"), "site");
  await writeFile(join(dir, "my file.txt"), "spaced");
  await writeFile(join(dir, "100%.txt"), "percent");
  await writeFile(join(dir, "what?.txt"), "question");
  await symlink(join(outside, "secret.txt"), join(dir, "escape.txt"));
  await symlink(outside, join(dir, "escape-dir"));
  await symlink(join(dir, "site.txt"), join(dir, "alias.txt"));
  return { dir, outside: root };
}

const SERVED: Array<[string, string]> = [
  ["/site.txt", "site"],
  ["/alias.txt", "site"],
  ["/.well-known/security.txt", "Contact: mailto:security@example.com"],
  ["/my%20file.txt", "spaced"],
  ["/100%25.txt", "percent"],
  ["/what%3F.txt", "question"],
];
const REFUSED = [
  "/.env",
  "/%2eenv",
  "/.git/config",
  "/.git/",
  "/docs/.secret",
  "/escape.txt",
  "/escape-dir/secret.txt",
  "/my%2Ffile.txt",
  "/100%.txt",
];

describe.each(["from the build", "in development"])("a hostile public folder, %s", (where) => {
  let hostile: { dir: string; outside: string };
  let app: ReturnType<typeof createApp>;
  let buildDir: string | undefined;
  beforeAll(async () => {
    hostile = await hostilePublicDir();
    const built =
      where === "from the build" ? await clientBuild({ app: FIXTURE_APP_MODULE, publicDir: hostile.dir }) : undefined;
    buildDir = built && dirname(built.sourcemaps);
    const publicFiles: PublicFiles | undefined = built ? undefined : livePublicFiles(hostile.dir);
    app = createApp(testConfig(), await loadApp(), {
      assets: built?.assets ?? (await clientAssets()),
      publicFiles,
      log: () => {},
    });
    app.listen({ hostname: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app.stop(true);
    await rm(hostile.outside, { recursive: true, force: true });
  });
  const get = (target: string) =>
    rawExchange(app.server!.port!, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);

  test.each(SERVED)("%p is served", async (target, body) => {
    const res = await get(target);
    expect({ target, status: res.status, body: new TextDecoder().decode(res.body) }).toEqual({
      target,
      status: 200,
      body,
    });
  });

  test.each(REFUSED)("%p is not: 404 (400 for malformed percent-encoding), none of its bytes", async (target) => {
    const res = await get(target);
    expect({ target, status: res.status }).toEqual({ target, status: target === "/100%.txt" ? 400 : 404 });
    expect(new TextDecoder().decode(res.body)).not.toContain("PRIVATE-");
  });

  if (where === "from the build") {
    test("the build's copy, which the binary embeds, holds no hidden file and no symlink's target from outside", () => {
      const copy = join(buildDir!, "client", "public");
      expect(existsSync(join(copy, "site.txt"))).toBe(true);
      for (const name of [".env", ".git/config", "docs/.secret", "escape.txt", "escape-dir"])
        expect({ name, there: existsSync(join(copy, name)) }).toEqual({ name, there: false });
    });
  }
});
