// Compressed pages and page data: the coding by Accept-Encoding, and streamed sections flushed as they come.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import zlib from "node:zlib";
import { ONE_SHOT_MAX_BYTES, compressed } from "../../../src/server/http/compress.ts";
import { listenApp, serveApp, type ListeningApp, type ServedApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";

let t: ServedApp;
let served: ListeningApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
  served = await listenApp(FIXTURE);
});
afterAll(() => served.stop());

const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync } as const;

async function bodyText(res: Response): Promise<string> {
  const coding = res.headers.get("content-encoding") as keyof typeof decode | null;
  const bytes = Buffer.from(await res.arrayBuffer());
  return (coding ? decode[coding](bytes) : bytes).toString("utf8");
}

describe("documents", () => {
  test.each([
    ["br, gzip", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0.5, br;q=0.9", "br"],
  ])("Accept-Encoding %s: the page in %s, whole", async (accept, coding) => {
    const res = await t.request("/", { headers: { "accept-encoding": accept } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe(coding);
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(res.headers.get("content-length")).toBeNull();
    const html = await bodyText(res);
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("Fixture home");
    expect(html.endsWith("</html>")).toBe(true);
  });

  test.each([null, "identity", "deflate", "br;q=0, gzip;q=0"])(
    "Accept-Encoding %p: sent as it is, still with Vary",
    async (accept) => {
      const res = await t.request("/", accept === null ? {} : { headers: { "accept-encoding": accept } });
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(await res.text()).toContain("Fixture home");
    },
  );

  test("an app's own Vary is kept", async () => {
    const res = await compressed(
      new Request("http://localhost/", { headers: { "accept-encoding": "gzip" } }),
      new Response("<p>x</p>".repeat(200), { headers: { "content-type": "text/html; charset=utf-8", vary: "Cookie" } }),
    );
    expect(res.headers.get("vary")).toBe("Cookie, Accept-Encoding");
    expect(await bodyText(res)).toBe("<p>x</p>".repeat(200));
  });

  test("development: pages go as they are, for the dev server to append its reload script", async () => {
    const dev = await serveApp({ ...FIXTURE, env: { NODE_ENV: "development" }, clientMode: "development" });
    const res = await dev.request("/", { headers: { "accept-encoding": "br, gzip" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.text()).toContain("Fixture home");
  });

  test("HEAD: the headers of the page, no coding", async () => {
    const res = await t.request("/", { method: "HEAD", headers: { "accept-encoding": "br, gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
  });

  test("an outcome page and an error page are compressed too", async () => {
    for (const [path, status] of [
      ["/no/such/page", 404],
      ["/server-error", 500],
    ] as const) {
      const res = await t.request(path, { headers: { "accept-encoding": "br" } });
      expect(res.status).toBe(status);
      expect(res.headers.get("content-encoding")).toBe("br");
      expect(await bodyText(res)).toContain("<!DOCTYPE html>");
    }
  });

  test("a redirect, a 304, a tiny body or another type are left alone", async () => {
    const accept = { headers: { "accept-encoding": "br, gzip" } };
    const redirect = await t.request("/redirect", accept);
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get("content-encoding")).toBeNull();
    const request = new Request("http://localhost/", accept);
    const html = { "content-type": "text/html; charset=utf-8" };
    const notModified = await compressed(request, new Response(null, { status: 304, headers: html }));
    expect(notModified.headers.get("content-encoding")).toBeNull();
    const tiny = await compressed(request, new Response("<p>hi</p>", { headers: { ...html, "content-length": "9" } }));
    expect(tiny.headers.get("content-encoding")).toBeNull();
    const text = await compressed(
      request,
      new Response("x".repeat(5000), { headers: { "content-type": "text/plain" } }),
    );
    expect(text.headers.get("content-encoding")).toBeNull();
  });
});

describe("a body that has all arrived", () => {
  /** A streamed HTML body whose chunks are all there before the first read. */
  const arrived = (chunks: string[]) =>
    new Response(
      new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(new TextEncoder().encode(x))), c.close()) }),
      {
        headers: { "content-type": "text/html; charset=utf-8" },
      },
    );
  const accept = (coding: string) => new Request("http://localhost/", { headers: { "accept-encoding": coding } });

  test.each(["br", "gzip"] as const)("%s: several chunks come out whole, as one", async (coding) => {
    const res = await compressed(accept(coding), arrived(["<p>one</p>", "<p>two</p>", "<p>three</p>"]));
    expect(res.headers.get("content-encoding")).toBe(coding);
    expect(await bodyText(res)).toBe("<p>one</p><p>two</p><p>three</p>");
  });

  test.each(["br", "gzip"] as const)(
    "%s: past ONE_SHOT_MAX_BYTES it goes through the encoder's stream, whole",
    async (coding) => {
      const chunk = "<p>a line of a long page</p>".repeat(1000);
      const chunks = Array.from({ length: Math.ceil(ONE_SHOT_MAX_BYTES / chunk.length) + 2 }, () => chunk);
      expect(await bodyText(await compressed(accept(coding), arrived(chunks)))).toBe(chunks.join(""));
    },
  );
});

describe("a body that fails", () => {
  test("before its first bytes: the answer fails the same way, with its status and no coding", async () => {
    const failing = new ReadableStream({ start: (c) => c.error(new Error("the page failed")) });
    const res = await compressed(
      new Request("http://localhost/", { headers: { "accept-encoding": "br" } }),
      new Response(failing, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    await expect(res.text()).rejects.toThrow("the page failed");
  });
});

describe("page data", () => {
  test("a small fixed answer goes as it is, with its length", async () => {
    const res = await t.request("/__data/", { headers: { "accept-encoding": "br, gzip" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    const body = await res.text();
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(JSON.parse(body).route).toBe("/");
  });

  test("streamed page data is compressed, every line intact", async () => {
    const res = await t.request("/__data/stream", { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const lines = (await bodyText(res))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].levels[0].deferred).toEqual(["section"]);
    expect(lines[1]).toEqual({ route: "/stream", key: "section", value: { items: ["alpha", "beta", "gamma"] } });
  });
});

describe("streaming over a socket", () => {
  test.each(["br", "gzip"] as const)(
    "%s: the shell decodes from the first bytes, before the section is rendered",
    async (coding) => {
      const res = await fetch(`${served.origin}/stream`, { headers: { "accept-encoding": coding }, decompress: false });
      expect(res.headers.get("content-encoding")).toBe(coding);
      const inflate = coding === "br" ? zlib.createBrotliDecompress() : zlib.createGunzip();
      let html = "";
      inflate.on("data", (d: Buffer) => (html += d.toString("utf8")));
      const reader = res.body!.getReader();
      // Fed to the decoder as they come off the socket: an encoder that held its output until its window
      // filled (CompressionStream) would give nothing decodable until the section and the end were in.
      let shellDecoded = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        await new Promise<void>((resolve) => inflate.write(value, () => resolve()));
        await new Promise<void>((resolve) => inflate.flush(() => resolve()));
        if (!shellDecoded && html.includes("Loading the streamed section")) shellDecoded = html;
      }
      inflate.end();
      expect(shellDecoded).toContain("Loading the streamed section");
      expect(shellDecoded).not.toContain("alpha");
      expect(html).toContain("alpha");
      expect(html).toContain("Streamed section</h2>");
      expect(html.endsWith("</html>")).toBe(true);
    },
  );
});
