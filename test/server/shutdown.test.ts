// shutdown.test.ts: SIGTERM and SIGINT on the real server process let in-flight requests finish within the
// deadline and exit 0; and the process's one JSON log line per request.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { drain } from "../../src/server/shutdown.ts";
import { binaryAlone, BUILD_TIMEOUT_MS, startBinary, type Alone, type RunningBinary } from "../support/binary.ts";
import { startFakeIngest } from "brisk/test";
import { until } from "../support/until.ts";

let alone: Alone;
const started: RunningBinary[] = [];

beforeAll(async () => {
  alone = await binaryAlone();
}, BUILD_TIMEOUT_MS);

afterAll(() => alone?.remove());

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.kill()));
});

async function serve(env: Record<string, string> = {}): Promise<RunningBinary> {
  const server = await startBinary(alone, env);
  started.push(server);
  return server;
}

/** Tries new connections until one is refused; fails if the process exits first. */
async function refusedWhileRunning(server: RunningBinary): Promise<void> {
  const refused = async () => {
    if (server.proc.exitCode !== null) throw new Error("the process exited before it was seen refusing connections");
    return fetch(`${server.origin}/healthz`, { headers: { connection: "close" } }).then(
      () => false,
      () => true,
    );
  };
  await until(refused, "a connection refused");
  // Still running: it stopped accepting while it finished its work.
  expect(server.proc.exitCode).toBeNull();
}

describe("stopping on a signal", () => {
  test("SIGTERM mid-stream: the page completes in full, new connections are refused, exit code 0", async () => {
    const server = await serve();
    const res = await fetch(`${server.origin}/stream`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let html = decoder.decode((await reader.read()).value, { stream: true });
    // The shell is out and the section is still pending: the request is in flight.
    expect(html).toContain("Loading the streamed section");
    expect(html).not.toContain("<h2>Streamed section</h2>");

    server.proc.kill("SIGTERM");
    await refusedWhileRunning(server);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      html += decoder.decode(chunk.value, { stream: true });

    expect(html).toContain("<h2>Streamed section</h2>");
    expect(html.trimEnd()).toEndWith("</html>");
    expect(await server.proc.exited).toBe(0);
    const lines = server.jsonLines();
    expect(lines.find((l) => l.msg === "request" && l.path === "/stream")?.status).toBe(200);
    expect(lines.find((l) => l.msg === "stopped")).toMatchObject({ signal: "SIGTERM", drained: true, abandoned: 0 });
  });

  test("SIGINT stops the same way, with exit code 0", async () => {
    const server = await serve();
    server.proc.kill("SIGINT");
    expect(await server.proc.exited).toBe(0);
    expect(server.jsonLines().find((l) => l.msg === "stopped")).toMatchObject({ signal: "SIGINT", drained: true });
  });

  test("a request still running at SHUTDOWN_TIMEOUT_MS is cut off, and the process exits 0 within the deadline", async () => {
    // An upstream that never answers keeps a /monitoring request in flight for as long as we let it.
    const ingest = await startFakeIngest();
    await ingest.setMode("slow");
    try {
      const timeoutMs = 300;
      const server = await serve({ SENTRY_DSN: ingest.dsn(), SHUTDOWN_TIMEOUT_MS: String(timeoutMs) });
      const body = `${JSON.stringify({ dsn: ingest.dsn() })}\n{"type":"event"}\n{}\n`;
      const stuck = fetch(`${server.origin}/monitoring`, { method: "POST", body }).then(
        (r) => r.status,
        () => "cut off",
      );
      await ingest.waitFor(1);
      const signalled = performance.now();
      server.proc.kill("SIGTERM");
      await refusedWhileRunning(server);
      expect(await server.proc.exited).toBe(0);
      // The deadline, then at most the 2 s Sentry flush, plus slack for a busy machine.
      expect(performance.now() - signalled).toBeLessThan(timeoutMs + 2_000 + 1_500);
      expect(await stuck).toBe("cut off");
      expect(server.jsonLines().find((l) => l.msg === "stopped")).toMatchObject({ drained: false, abandoned: 1 });
    } finally {
      await ingest.stop();
    }
  });
});

describe("drain", () => {
  const encoder = new TextEncoder();
  /** A server whose one response streams what `start` writes; and that response, requested. */
  async function streaming(start: (controller: ReadableStreamDefaultController<Uint8Array>) => unknown) {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response(new ReadableStream({ start })),
    });
    return { server, response: await fetch(`http://127.0.0.1:${server.port}/`) };
  }

  test("resolves drained once a streamed response has ended", async () => {
    const { server, response } = await streaming(async (controller) => {
      controller.enqueue(encoder.encode("first "));
      await Bun.sleep(100);
      controller.enqueue(encoder.encode("last"));
      controller.close();
    });
    expect(await drain(server, 5_000)).toEqual({ drained: true, abandoned: 0 });
    expect(await response.text()).toBe("first last");
  });

  test("cuts off what is still running at the deadline", async () => {
    const { server, response } = await streaming((controller) => controller.enqueue(encoder.encode("never ends")));
    expect(await drain(server, 50)).toEqual({ drained: false, abandoned: 1 });
    await expect(response.text()).rejects.toThrow();
  });
});

describe("the log", () => {
  let server: RunningBinary;
  beforeAll(async () => {
    server = await startBinary(alone);
  });
  afterAll(() => server?.kill());

  const lineFor = async (requestId: string) => {
    await server.waitForOutput(new RegExp(`"requestId":"${requestId}"`));
    return server.jsonLines().find((l) => l.requestId === requestId)!;
  };

  test("writes one JSON line per request: method, path, status, ms, requestId", async () => {
    const res = await fetch(`${server.origin}/search?q=log`);
    await res.text();
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = await lineFor(id);
    expect(line).toMatchObject({ level: "info", msg: "request", method: "GET", path: "/search", status: 200 });
    expect(typeof line.ms).toBe("number");
    expect(server.jsonLines().filter((l) => l.requestId === id)).toHaveLength(1);
  });

  test("a failed request's line carries its digest", async () => {
    const res = await fetch(`${server.origin}/server-error`);
    const digest = /Digest: <code>([0-9a-z]{10})<\/code>/.exec(await res.text())![1];
    const line = await lineFor(res.headers.get("x-request-id")!);
    expect(line).toMatchObject({ level: "error", status: 500, digest });
  });

  test("without TRUST_PROXY, replaces even a well-formed incoming X-Request-Id", async () => {
    const replaced = await fetch(`${server.origin}/healthz`, { headers: { "x-request-id": "lb-7f3a9c21.trace:42" } });
    const id = replaced.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await lineFor(id)).path).toBe("/healthz");
  });
});
