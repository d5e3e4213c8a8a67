// render-limit.ts on the real app (issue 36 item 9): past RENDER_MAX_IN_FLIGHT pages rendering at once, or a
// visitor's eighth of them, a page is a 503 with Retry-After (HTML for a document, JSON for page data), logged as a
// warning and never captured; a render gives its place back when it ends, fails or its visitor goes away, in
// process and on a real socket.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { Suspense, use } from "react";
import { useLoaderData } from "brisk";
import type { LogRecord } from "../../../src/runtime/app-server.ts";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { ConfigError, parseConfig } from "../../../src/server/config/config.ts";
import { createApp, type BriskApp } from "../../../src/server/create-app.ts";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";
import { until } from "../../support/until.ts";

/** 16 places, 2 a visitor. */
const PLACES = 16;
const SHARE = 2;

/** What the held page's streamed section waits for: opened by the test, a new one for each test. */
let gate = Promise.withResolvers<string>();
const heldLoader = () => ({ section: gate.promise });

function Section({ section }: { section: Promise<string> }) {
  return <p id="section">{use(section)}</p>;
}

/** A page whose shell goes out at once and whose streamed section waits for the gate: its render is in flight until then. */
function Held() {
  const { section } = useLoaderData<typeof heldLoader>();
  return (
    <main>
      <Suspense fallback={<p id="waiting">waiting</p>}>
        <Section section={section} />
      </Suspense>
    </main>
  );
}

const logs: LogRecord[] = [];
const captured: unknown[] = [];
let app: BriskApp;

beforeAll(async () => {
  const fixture = await loadApp();
  const routes = [...fixture.routes, { path: "/held", component: Held, loader: heldLoader }];
  // Behind a trusted proxy, so that in-process requests come from the visitor their X-Forwarded-For names.
  app = createApp(
    testConfig({ RENDER_MAX_IN_FLIGHT: String(PLACES), TRUST_PROXY: "1" }),
    defineApp({ ...fixture, routes }),
    {
      assets: await clientAssets(),
      log: (line) => void logs.push(line),
      capture: (error) => void captured.push(error),
    },
  );
});
afterAll(() => gate.resolve("done"));

const from = (visitor: string, init: RequestInit = {}) => ({ ...init, headers: { "x-forwarded-for": visitor } });
const get = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
const visitor = (n: number) => `198.51.100.${n}`;

/** `count` held pages of `who`'s, each answered (its shell sent) and still rendering; aborted with `controller` when given. */
async function hold(who: string, count: number, controller?: AbortController): Promise<Response[]> {
  const answers = await Promise.all(
    Array.from({ length: count }, () => get("/held", from(who, { signal: controller?.signal }))),
  );
  expect(answers.map((r) => r.status)).toEqual(Array<number>(count).fill(200));
  return answers;
}

/** Opens the gate: every held page renders its section and ends; resolves once their bodies have all been read. */
async function release(held: Response[]) {
  gate.resolve("opened");
  const bodies = await Promise.all(held.map((r) => r.text()));
  for (const body of bodies) expect(body).toContain('<p id="section">opened</p>');
  gate = Promise.withResolvers<string>();
}

/** Every place taken, a share by each of PLACES / SHARE visitors: the next page of anyone's is shed. */
async function fill(controller?: AbortController): Promise<Response[]> {
  const held = await Promise.all(
    Array.from({ length: PLACES / SHARE }, (_, i) => hold(visitor(i + 1), SHARE, controller)),
  );
  expect((await get("/items/7", from("203.0.113.9"))).status).toBe(503);
  return held.flat();
}

describe("RENDER_MAX_IN_FLIGHT", () => {
  test("past a visitor's share: a document is a 503 page with Retry-After, page data a 503 in JSON; another visitor is served", async () => {
    const held = await hold(visitor(1), SHARE);
    const page = await get("/items/7", from(visitor(1)));
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("1");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'none'");
    expect(await page.text()).toContain("<h1>Too busy</h1>");
    const data = await get("/__data/items/7", from(visitor(1)));
    expect(data.status).toBe(503);
    expect(data.headers.get("retry-after")).toBe("1");
    expect(await data.json()).toEqual({ error: "too many pages being rendered at once; try again" });
    expect((await get("/items/7", from(visitor(2)))).status).toBe(200);
    await release(held);
    expect((await get("/items/7", from(visitor(1)))).status).toBe(200);
  });

  test("past the places of all visitors together: every visitor's page is shed, until renders end", async () => {
    const held = await fill();
    expect((await get("/__data/items/7", from("203.0.113.10"))).status).toBe(503);
    await release(held);
    expect((await get("/items/7", from("203.0.113.9"))).status).toBe(200);
  });

  test("a shed page is logged as a warning with its 503, and nothing is captured", async () => {
    const held = await hold(visitor(3), SHARE);
    const shed = await get("/items/7", from(visitor(3)));
    await shed.text();
    const id = shed.headers.get("x-request-id");
    await until(() => logs.some((l) => l.requestId === id), "the shed page's log line");
    expect(logs.find((l) => l.requestId === id)).toMatchObject({ level: "warn", status: 503, path: "/items/7" });
    expect(captured).toEqual([]);
    await release(held);
  });

  test("places come back when renders end, fail or are aborted, streamed pages and page data alike: none is lost", async () => {
    // Three rounds of every place: ended, aborted mid-stream (documents, then page data), and failed.
    await release(await fill());
    const leaving = new AbortController();
    const left = await fill(leaving);
    leaving.abort();
    // Their bodies are cancelled with the render; nothing of them is read.
    expect(left).toHaveLength(PLACES);
    const dataLeaving = new AbortController();
    const data = await Promise.all(
      Array.from({ length: PLACES }, (_, i) =>
        get("/__data/held", from(visitor(Math.floor(i / SHARE) + 1), { signal: dataLeaving.signal })),
      ),
    );
    expect(data.map((r) => r.status)).toEqual(Array<number>(PLACES).fill(200));
    expect((await get("/items/7", from("203.0.113.9"))).status).toBe(503);
    dataLeaving.abort();
    const failed = await Promise.all(
      Array.from({ length: PLACES }, (_, i) => get("/server-error", from(visitor(Math.floor(i / SHARE) + 1)))),
    );
    expect(failed.map((r) => r.status)).toEqual(Array<number>(PLACES).fill(500));
    // Every place is free again: all of them can be taken, and no more.
    await release(await fill());
  });
});

describe("on a real socket", () => {
  test("a visitor who leaves a streamed page or its page data at the first bytes gives its place back, however often it comes back", async () => {
    app.listen({ hostname: "127.0.0.1", port: 0 });
    const port = app.server!.port!;
    try {
      // Without X-Forwarded-For a request is its socket's address: 127.0.0.1, with a share of two places.
      /** Asks for `path`, leaves at the first bytes; resolves with the status they began. */
      const abandon = (path: string) =>
        new Promise<string>((done) => {
          const socket = connect({ host: "127.0.0.1", port });
          socket.once("data", (chunk) => (socket.destroy(), done(chunk.toString("latin1").slice(9, 12))));
          socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
        });
      for (let round = 0; round < 5; round++) {
        // Both served: the visitor's two places were free again.
        expect(await Promise.all([abandon("/held"), abandon("/__data/held")])).toEqual(["200", "200"]);
        // Each left page is still waiting on the gate (page data's stream for good): only its visitor's leaving
        // gives its place back.
        let status = 0;
        await until(
          async () => (status = (await fetch(`http://127.0.0.1:${port}/items/7`)).status) === 200,
          () => `a place for the visitor again; it got ${status}`,
        );
      }
    } finally {
      await app.stop(true);
    }
  });
});

test("RENDER_MAX_IN_FLIGHT must be a whole number of at least 8", () => {
  expect(parseConfig({ RENDER_MAX_IN_FLIGHT: "64" }).renderMaxInFlight).toBe(64);
  expect(parseConfig({}).renderMaxInFlight).toBe(256);
  expect(() => parseConfig({ RENDER_MAX_IN_FLIGHT: "0" })).toThrow(ConfigError);
  expect(() => parseConfig({ RENDER_MAX_IN_FLIGHT: "many" })).toThrow("RENDER_MAX_IN_FLIGHT");
});
