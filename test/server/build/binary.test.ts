// binary.test.ts: `bun run build`'s binary (of the fixture app), copied alone into an empty folder, serves every
// page, asset, /healthz and /monitoring, reports to Sentry, and answers `--healthcheck` for the container.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkHealth, healthUrl } from "../../../src/server/healthcheck.ts";
import {
  binaryAlone,
  builtBinary,
  BUILD_TIMEOUT_MS,
  startBinary,
  type Alone,
  type RunningBinary,
} from "../../support/binary.ts";
import { freePort, startFakeIngest, type FakeIngest } from "brisk/test";
import { serverEnv } from "../../support/process.ts";

let alone: Alone;
let server: RunningBinary;

beforeAll(async () => {
  const { bytes } = await builtBinary();
  alone = await binaryAlone();
  server = await startBinary(alone);
  console.log(
    `binary: ${bytes} bytes (${(bytes / 1_048_576).toFixed(1)} MiB); cold start to the first 200 on /: ${server.coldStartMs} ms`,
  );
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await server?.kill();
  await alone?.remove();
});

const get = (path: string, init?: RequestInit) => fetch(`${server.origin}${path}`, { redirect: "manual", ...init });

describe("the binary, alone in an empty folder", () => {
  test("has nothing beside it but the data it writes, and runs as a production build without NODE_ENV", async () => {
    // DATA_DIR's default, ./data, made on first start: the generated cookie secret (the fixture app keeps nothing else).
    expect((await readdir(alone.dir)).sort()).toEqual(["brisk", "data"]);
    expect(await readdir(`${alone.dir}/data`)).toEqual(["cookie-secret"]);
    const listening = server.jsonLines().find((l) => l.msg === "listening");
    expect(listening?.mode).toBe("production");
    // Production pages carry the digest, never the error's message.
    const html = await (await get("/server-error")).text();
    expect(html).toMatch(/Digest: <code>[0-9a-z]{10}<\/code>/);
    expect(html).not.toContain("Fixture failure in a loader");
  });

  /** What each of the fixture app's pages answers (an unknown path too). */
  const PAGES: Record<string, number> = {
    "/": 200,
    "/search?q=x": 200,
    "/items/1": 200,
    "/stream": 200,
    "/redirect": 307,
    "/not-found": 404,
    "/forbidden": 403,
    "/unauthorized": 401,
    "/server-error": 500,
    "/render-error": 500,
    "/late-error": 200,
    "/late-not-found": 200,
    "/client-error": 200,
    "/form": 200,
    "/upload": 200,
    "/cached": 200,
    "/prerendered": 200,
    "/lazy": 200,
    "/no-such-page": 404,
  };
  test.each(Object.entries(PAGES))("GET %s answers %i", async (path, status) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    if (status !== 307) expect(await res.text()).toContain("</html>");
  });

  test("the API answers JSON", async () => {
    const res = await get("/api/notes");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ notes: expect.any(Array) });
  });

  test("the prerendered page was rendered by the build: stored from the first request, a nonce of its own each time", async () => {
    const a = await get("/prerendered");
    const b = await get("/prerendered");
    expect(a.headers.get("etag")).toMatch(/^W\/"[0-9a-z]+(-gzip)?"$/);
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
    expect(b.headers.get("content-security-policy")).not.toBe(a.headers.get("content-security-policy"));
    expect(await a.text()).toContain("<main");
  });

  test("an image a page imports is its hashed /assets/ URL on a page rendered per request, and is served there", async () => {
    const html = await (await get("/")).text();
    const src = /<img src="([^"]+)"/.exec(html)?.[1];
    expect(src).toMatch(/^\/assets\/mark-[0-9a-z]+\.svg$/);
    const res = await get(src!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("image/svg+xml");
  });

  test("the streamed page arrives whole", async () => {
    const html = await (await get("/stream")).text();
    expect(html).toContain("<h2>Streamed section</h2>");
    expect(html).toContain("alpha, beta, gamma");
  });

  test("serves the client entry and stylesheets the pages name, immutable and precompressed", async () => {
    const html = (await (await get("/")).text()) + (await (await get("/lazy")).text());
    // Attributes, and the boot script's list of the modules it imports.
    const urls = [...new Set([...html.matchAll(/"(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!))];
    expect(urls.some((u) => /\/entry-client-[a-z0-9]+\.js$/.test(u))).toBe(true);
    expect(urls.some((u) => /\/lazy-[a-z0-9]+\.css$/.test(u))).toBe(true);
    for (const url of urls) {
      const res = await get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith(url.endsWith(".js") ? "text/javascript" : "text/css");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const entry = urls.find((u) => u.includes("/entry-client-") && u.endsWith(".js"))!;
    const br = await get(entry, { headers: { "accept-encoding": "br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
  });

  test("a missing asset is a plain 404", async () => {
    const res = await get("/assets/entry-client-00000000.js");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toStartWith("text/plain");
  });

  test("GET /healthz answers 200", async () => {
    const res = await get("/healthz");
    expect(res.status).toBe(200);
  });

  test("POST /monitoring answers 404 when no DSN is configured, and its log line is no error", async () => {
    const res = await get("/monitoring", { method: "POST", body: '{"dsn":"https://k@example.com/1"}\n{}' });
    expect(res.status).toBe(404);
    const id = res.headers.get("x-request-id")!;
    await server.waitForOutput(new RegExp(`"requestId":"${id}"`));
    expect(server.jsonLines().find((l) => l.requestId === id)).toMatchObject({
      level: "info",
      path: "/monitoring",
      status: 404,
    });
  });
});

describe("the binary with SENTRY_DSN", () => {
  let ingest: FakeIngest;
  let monitored: RunningBinary;

  beforeAll(async () => {
    ingest = await startFakeIngest();
    monitored = await startBinary(alone, { SENTRY_DSN: ingest.dsn() });
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await monitored?.kill();
    await ingest?.stop();
  });

  test("forwards a browser envelope through /monitoring to the configured DSN", async () => {
    const body = `${JSON.stringify({ event_id: "e1", dsn: ingest.dsn() })}\n{"type":"event"}\n{"message":"from the browser"}\n`;
    const res = await fetch(`${monitored.origin}/monitoring`, { method: "POST", body });
    expect(res.status).toBe(200);
    expect(ingest.received.some((r) => r.text === body && r.path === "/api/42/envelope/")).toBe(true);
  });

  test("a server error's frames name the project's file, line, function and source lines, and only the app's and Brisk's own are in-app", async () => {
    await ingest.reset();
    const html = await (await fetch(`${monitored.origin}/server-error`)).text();
    const digest = /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)![1];
    await ingest.waitFor(1, 5_000);
    const event = ingest.events().find((e) => e.tags?.digest === digest)!;
    const frames = event.exception!.values!.at(-1)!.stacktrace!.frames!;
    expect(frames.at(-1)).toMatchObject({
      filename: "test/fixtures/app/loaders.server.ts",
      function: "serverErrorLoader",
      lineno: 24,
      in_app: true,
    });
    expect(frames.find((f) => f.function === "resolvePage")).toMatchObject({
      filename: "src/server/pages/resolve-page.ts",
      in_app: true,
    });
    // Their source lines too, from the binary's own copy (none of the project's files is on disk beside it).
    expect(frames.at(-1)?.context_line).toContain('throw new Error("Fixture failure in a loader");');
    expect(frames.at(-1)?.pre_context?.at(-1)).toContain("export const serverErrorLoader");
    for (const frame of frames.filter((f) => f.in_app))
      expect({ file: frame.filename, line: typeof frame.context_line }).toEqual({
        file: frame.filename,
        line: "string",
      });
    for (const frame of frames) expect(frame.in_app).toBe(/^(src|test\/fixtures\/app)\//.test(frame.filename ?? ""));
    // Elysia's own frames are there, and not the app's.
    expect(frames.some((f) => !f.in_app)).toBe(true);
  });

  test("reports a server error with its digest and the build id as release, and still exits 0 on SIGTERM", async () => {
    const html = await (await fetch(`${monitored.origin}/server-error`)).text();
    const digest = /Digest: <code>([0-9a-z]{10})<\/code>/.exec(html)![1];
    monitored.proc.kill("SIGTERM");
    expect(await monitored.proc.exited).toBe(0);
    const event = ingest.events().find((e) => e.tags?.digest === digest);
    expect(event?.release).toBe((await builtBinary()).buildId);
  });
});

describe("plain HTTP on an address other machines reach", () => {
  const started: RunningBinary[] = [];
  afterAll(() => Promise.all(started.map((s) => s.kill())));

  /** The binary on every address with `env`; its output whole once it has stopped, and a sign-in's cookie. */
  async function signInOn(env: Record<string, string>) {
    const wide = await startBinary(alone, { HOST: "0.0.0.0", ...env });
    started.push(wide);
    const res = await fetch(`${wide.origin}/session`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: wide.origin, "content-type": "application/x-www-form-urlencoded" },
      body: "name=Ada",
    });
    expect(res.status).toBe(303);
    await wide.kill();
    await wide.waitForOutput(/"msg":"stopped"/);
    const warnings = wide.jsonLines().filter((l) => l.level === "warn" && String(l.msg).includes("Secure"));
    return { warnings, cookie: res.headers.getSetCookie().find((c) => c.startsWith("session="))! };
  }

  test("says once that browsers drop its Secure cookies over plain HTTP, and how to run it so", async () => {
    const { warnings, cookie } = await signInOn({});
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain("COOKIE_SECURE=false");
    expect(cookie).toMatch(/; Secure/i);
  });

  test("with COOKIE_SECURE=false its cookies are not Secure, and it says nothing", async () => {
    const { warnings, cookie } = await signInOn({ COOKIE_SECURE: "false" });
    expect(warnings).toEqual([]);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).not.toMatch(/secure/i);
  });
});

describe("an address the binary cannot listen on", () => {
  test.each(["999.1.1.1", "8.8.8.8", "no-such-host.invalid"])(
    "HOST=%p: one line naming HOST, exit 1, before the app starts",
    async (host) => {
      // A DATA_DIR of its own: a start would generate the cookie secret there, and log a warning saying so.
      const dataDir = await mkdtemp(join(tmpdir(), "brisk-host-"));
      try {
        const env = serverEnv({ HOST: host, PORT: "0", DATA_DIR: dataDir });
        const proc = Bun.spawn([alone.binary], { cwd: alone.dir, env, stdout: "pipe", stderr: "pipe" });
        const [code, stdout, stderr] = await Promise.all([
          proc.exited,
          new Response(proc.stdout).text(),
          new Response(proc.stderr).text(),
        ]);
        expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
        expect(stderr).toStartWith(`brisk: invalid configuration: HOST: cannot listen on "${host}"`);
        expect(stderr.trimEnd().split("\n")).toHaveLength(1);
        expect(await readdir(dataDir)).toEqual([]);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe("brisk --healthcheck", () => {
  const check = async (port: number) => {
    const proc = Bun.spawn([alone.binary, "--healthcheck"], {
      cwd: alone.dir,
      env: serverEnv({ PORT: String(port) }),
      stdout: "pipe",
      stderr: "pipe",
    });
    return { code: await proc.exited, stderr: await new Response(proc.stderr).text() };
  };

  test("exits 0 while the server answers /healthz", async () => {
    expect(await check(server.port)).toEqual({ code: 0, stderr: "" });
  });

  test("exits 1, saying why, when nothing listens on PORT", async () => {
    const { code, stderr } = await check(await freePort());
    expect(code).toBe(1);
    expect(stderr).toContain("brisk: unhealthy:");
  });

  test("asks over loopback when the server listens on every address", () => {
    expect(healthUrl({ host: "0.0.0.0", port: 3000 })).toBe("http://127.0.0.1:3000/healthz");
    expect(healthUrl({ host: "::", port: 8080 })).toBe("http://[::1]:8080/healthz");
    expect(healthUrl({ host: "10.1.2.3", port: 80 })).toBe("http://10.1.2.3:80/healthz");
  });

  test("is unhealthy on any status but 200", async () => {
    const stub = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("draining", { status: 503 }) });
    try {
      expect(await checkHealth(`http://127.0.0.1:${stub.port}/healthz`)).toContain("answered 503");
    } finally {
      await stub.stop(true);
    }
  });
});
