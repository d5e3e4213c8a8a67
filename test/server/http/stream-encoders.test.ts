// The encoders of streamed answers: a cap on those alive at once (identity past it), none for a request already
// aborted, each released as its request aborts or its body ends, fails or is cancelled.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import zlib from "node:zlib";
import { compressed } from "../../../src/server/http/compress.ts";
import { MAX_STREAM_ENCODERS, liveStreamEncoders } from "../../../src/server/http/stream-encoders.ts";
import { serveApp, type ServedApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp(FIXTURE);
});

const encoder = new TextEncoder();
const HTML = { "content-type": "text/html; charset=utf-8" };

/** A streamed HTML body whose first chunk is there and whose rest comes when the test says. */
function held(first = "<p>shell</p>") {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(first));
    },
  });
  return {
    response: new Response(body, { headers: HTML }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    fail: (error: Error) => controller.error(error),
  };
}

const asking = (coding: string, signal?: AbortSignal) =>
  new Request("http://localhost/", { headers: { "accept-encoding": coding }, signal });

/** Every response a test leaves open is cancelled after it, so no test starts with another's encoders. */
const open: Response[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.body?.cancel().catch(() => {})));
  expect(liveStreamEncoders()).toBe(0);
});

describe("the cap", () => {
  test.each(["br", "gzip"])(
    "%s: past MAX_STREAM_ENCODERS live encoders a streamed answer goes as it is, with Vary",
    async (coding) => {
      for (let i = 0; i < MAX_STREAM_ENCODERS; i++) {
        const res = await compressed(asking(coding), held().response);
        expect(res.headers.get("content-encoding")).toBe(coding);
        open.push(res);
      }
      expect(liveStreamEncoders()).toBe(MAX_STREAM_ENCODERS);

      const past = held();
      const res = await compressed(asking(coding), past.response);
      open.push(res);
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(liveStreamEncoders()).toBe(MAX_STREAM_ENCODERS);
      past.send("<p>section</p>");
      past.end();
      expect(await res.text()).toBe("<p>shell</p><p>section</p>");

      // A body of known length is compressed whole: it needs no streaming encoder.
      const page = "<p>x</p>".repeat(300);
      const whole = await compressed(
        asking(coding),
        new Response(page, { headers: { ...HTML, "content-length": String(page.length) } }),
      );
      expect(whole.headers.get("content-encoding")).toBe(coding);
      const inflate = coding === "br" ? zlib.brotliDecompressSync : zlib.gunzipSync;
      expect(inflate(Buffer.from(await whole.arrayBuffer())).toString()).toBe(page);

      // One released, the next streamed answer is compressed again.
      await open.shift()!.body!.cancel();
      expect(liveStreamEncoders()).toBe(MAX_STREAM_ENCODERS - 1);
      const again = await compressed(asking(coding), held().response);
      open.push(again);
      expect(again.headers.get("content-encoding")).toBe(coding);
    },
  );
});

describe("release", () => {
  test("a request already aborted gets no encoder, and its answer goes as it is", async () => {
    const abort = new AbortController();
    abort.abort();
    const res = await compressed(asking("br", abort.signal), held().response);
    open.push(res);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(liveStreamEncoders()).toBe(0);
  });

  test("the encoder goes when the body ends, and the answer decodes whole", async () => {
    const source = held();
    const res = await compressed(asking("br"), source.response);
    expect(liveStreamEncoders()).toBe(1);
    source.send("<p>section</p>");
    source.end();
    expect(zlib.brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(
      "<p>shell</p><p>section</p>",
    );
    expect(liveStreamEncoders()).toBe(0);
  });

  test("the encoder goes when the body fails, and the answer fails with it", async () => {
    const source = held();
    const res = await compressed(asking("gzip"), source.response);
    const reader = res.body!.getReader();
    await reader.read();
    expect(liveStreamEncoders()).toBe(1);
    source.fail(new Error("the section failed"));
    await expect(reader.read()).rejects.toThrow("the section failed");
    await reader.closed.catch(() => {});
    expect(liveStreamEncoders()).toBe(0);
  });

  test("the encoder goes when the client cancels the body, and the source is cancelled too", async () => {
    let cancelled: unknown;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(encoder.encode("<p>shell</p>")),
      cancel: (reason) => void (cancelled = reason),
    });
    const res = await compressed(asking("br"), new Response(body, { headers: HTML }));
    expect(liveStreamEncoders()).toBe(1);
    await res.body!.cancel("gone");
    expect(liveStreamEncoders()).toBe(0);
    expect(cancelled).toBe("gone");
  });

  test.each(["br", "gzip"])(
    "%s: a streamed page's encoder goes the moment its request aborts, after its shell was read",
    async (coding) => {
      const abort = new AbortController();
      const res = await t.request("/stream", { headers: { "accept-encoding": coding }, signal: abort.signal });
      expect(res.headers.get("content-encoding")).toBe(coding);
      const reader = res.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      expect(liveStreamEncoders()).toBe(1);
      abort.abort();
      expect(liveStreamEncoders()).toBe(0);
      await reader.cancel();
    },
  );

  test("streamed page data's encoder goes the moment its request aborts", async () => {
    const abort = new AbortController();
    const res = await t.request("/__data/stream", { headers: { "accept-encoding": "br" }, signal: abort.signal });
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(liveStreamEncoders()).toBe(1);
    abort.abort();
    expect(liveStreamEncoders()).toBe(0);
    await res.body!.cancel();
  });
});
