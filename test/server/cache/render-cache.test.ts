// The render cache on the fixture app: kept answers with their own nonce, conditional requests and HEAD, page data,
// tags and paths, stale-while-revalidate with one render at a time, and the answers never kept: those that read the
// visitor (cookies, session, headers, the request in middleware), failed, set a cookie, or raced an invalidation.
import { afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import type { ServedApp } from "brisk/test";
import { revalidatePath, revalidateTag } from "brisk/server";
import { memoState } from "../../fixtures/app/render-cache.server.ts";
import type { LogRecord } from "../../../src/runtime/app-server.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { clientAssets, FIXTURE, loadApp, serveWith, testConfig } from "../../support/app.ts";
import { until } from "../../support/until.ts";
import type { CacheStats } from "../../../src/server/cache/render-cache.ts";
import { checkCacheOptions } from "../../../src/server/cache/cache-policy.ts";
import type { RouteDefinition } from "../../../src/runtime/route.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveWith(FIXTURE);
});
afterEach(() => {
  setSystemTime();
  Object.assign(memoState, { deny: false, gate: undefined, failLate: false, middlewareGate: undefined });
});

const renderOf = (html: string) => Number(/Render (?:<!-- -->)?(\d+)/.exec(html)?.[1]);
const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

async function stats(): Promise<CacheStats> {
  const res = await t.request("/healthz", { headers: { accept: "application/json" } });
  return ((await res.json()) as { renderCache: CacheStats }).renderCache;
}

/** A GET of `path`, its body read to the end (so a miss can be kept), and whether the cache answered it. */
async function get(path: string, init?: RequestInit) {
  const res = await t.request(path, init);
  const html = await res.text();
  return { res, html, render: renderOf(html), cache: res.headers.get("x-cache") };
}

/** A miss, then the moment the cache has kept it. */
async function kept(path: string, init?: RequestInit) {
  const before = (await stats()).stored;
  const miss = await get(path, init);
  expect(miss.cache).toBe("miss");
  await until(async () => (await stats()).stored > before, `${path} kept`);
  return miss;
}

/**
 * A GET of `path` held at the fixture's gate (its loader's, or its middleware's) while `meanwhile` runs, then let
 * go: its answer, read to the end.
 */
async function heldWhile(path: string, gate: "gate" | "middlewareGate", meanwhile: () => Promise<void>) {
  const counter = gate === "gate" ? "waiting" : "middlewareWaiting";
  let open!: () => void;
  memoState[gate] = new Promise<void>((resolve) => (open = resolve));
  const waiting = memoState[counter];
  const pending = get(path);
  await until(() => memoState[counter] > waiting, `${path} held at its ${gate}`);
  await meanwhile();
  memoState[gate] = undefined;
  open();
  return pending;
}

describe("a cached page", () => {
  test("is rendered once, then answered from memory with its own nonce and request id", async () => {
    const first = await kept("/memo?q=one");
    const second = await get("/memo?q=one");
    expect(second.cache).toBe("hit");
    expect(second.render).toBe(first.render);
    expect(second.res.status).toBe(200);
    expect(nonceOf(second.res)).not.toBe(nonceOf(first.res));
    expect(second.res.headers.get("x-request-id")).not.toBe(first.res.headers.get("x-request-id"));
    // The same bytes but the nonce.
    expect(second.html.replaceAll(nonceOf(second.res)!, "N")).toBe(first.html.replaceAll(nonceOf(first.res)!, "N"));
    expect(second.html).toContain(`nonce="${nonceOf(second.res)}"`);
    expect(second.html).toContain('<p class="late">late</p>');
  });

  test("is keyed by its host and port: a visitor's Host header cannot plant a page for another's", async () => {
    const planted = await t.handle(new Request("http://localhost:6666/memo?q=host"));
    await planted.text();
    expect(planted.headers.get("x-cache")).toBe("miss");
    await kept("/memo?q=host");
    const other = await t.handle(new Request("http://localhost:6666/memo?q=host"));
    expect(other.headers.get("x-cache")).toBe("hit");
  });

  test("is keyed by its search with the parameters in any order, and by nothing else", async () => {
    const first = await kept("/memo?a=1&b=2");
    expect((await get("/memo?b=2&a=1")).render).toBe(first.render);
    expect((await get("/memo?a=1&b=3")).cache).toBe("miss");
  });

  test("answers gzip from its kept member, a conditional GET with 304, and HEAD with the GET's length", async () => {
    await kept("/memo?q=codings");
    const gzip = await t.request("/memo?q=codings", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const etag = gzip.headers.get("etag")!;
    expect(etag).toMatch(/^W\/".+-gzip"$/);
    expect(renderOf(new TextDecoder().decode(Bun.gunzipSync(await gzip.arrayBuffer())))).toBeGreaterThan(0);
    const again = await t.request("/memo?q=codings", {
      headers: { "accept-encoding": "gzip", "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    const plain = await get("/memo?q=codings");
    const head = await t.request("/memo?q=codings", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-cache")).toBe("hit");
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(plain.html));
  });

  test("keeps its page data apart from its document", async () => {
    const document = await kept("/memo?q=data");
    const data = await kept("/__data/memo?q=data");
    expect(data.html).toContain('"render":');
    expect(data.render).not.toBe(document.render);
    const hit = await get("/__data/memo?q=data");
    expect(hit.cache).toBe("hit");
    expect(hit.html).toBe(data.html);
  });

  test("keeps a 404 its loader decided, and never a redirect or an error", async () => {
    const missing = await kept("/memo?missing=1");
    expect(missing.res.status).toBe(404);
    const hit = await get("/memo?missing=1");
    expect(hit.res.status).toBe(404);
    expect(hit.cache).toBe("hit");
    memoState.failLate = true;
    const failed = await get("/memo?q=late-failure");
    expect(failed.html).toContain("late failed");
    const before = await stats();
    expect((await get("/memo?q=late-failure")).cache).toBe("miss");
    expect((await stats()).stored).toBe(before.stored);
  });
});

describe("invalidation", () => {
  test("revalidateTag drops every answer under the tag: the next request renders afresh", async () => {
    const first = await kept("/memo?q=tagged");
    const guarded = await kept("/memo-guarded");
    await revalidateTag("memo");
    const after = await get("/memo?q=tagged");
    expect(after.cache).toBe("miss");
    expect(after.render).toBeGreaterThan(first.render);
    expect((await get("/memo-guarded")).cache).toBe("miss");
    expect(guarded.render).toBeGreaterThan(0);
  });

  test("an action's revalidateTag reaches the page it changed", async () => {
    const first = await kept("/memo?q=action");
    const post = await t.request("/memo?q=action", {
      method: "POST",
      headers: { origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" },
      body: "x=1",
    });
    expect(post.status).toBe(200);
    await post.text();
    const after = await get("/memo?q=action");
    expect(after.render).toBeGreaterThan(first.render);
  });

  test("revalidatePath drops the path's answers whatever their search, and no other path's", async () => {
    await kept("/memo?q=path-a");
    await kept("/memo-personal");
    await revalidatePath("/memo");
    expect((await get("/memo?q=path-a")).cache).toBe("miss");
    expect((await get("/memo-personal")).cache).toBe("hit");
  });

  test("an answer whose render an invalidation overtook is not kept", async () => {
    const before = (await stats()).stored;
    const raced = await heldWhile("/memo?q=race", "gate", () => revalidateTag("memo"));
    expect(raced.cache).toBe("miss");
    // The next render is a miss and is kept: the only answer kept since the race began.
    await kept("/memo?q=race");
    expect((await stats()).stored).toBe(before + 1);
  });

  test("an invalidation of other tags while a page renders leaves it to be kept", async () => {
    const before = (await stats()).stored;
    const answer = await heldWhile("/memo?q=unrelated", "gate", async () => {
      await revalidateTag("not-memo");
      await revalidatePath("/elsewhere");
    });
    expect(answer.cache).toBe("miss");
    await until(async () => (await stats()).stored > before, "the answer kept");
    expect((await get("/memo?q=unrelated")).cache).toBe("hit");
  });

  test("a write while a page's middleware runs spoils that render: what the middleware read may be older", async () => {
    await revalidateTag("memo");
    const before = (await stats()).stored;
    expect((await heldWhile("/memo-guarded", "middlewareGate", () => revalidateTag("memo"))).cache).toBe("miss");
    await kept("/memo-guarded");
    expect((await stats()).stored).toBe(before + 1);
  });

  test("revalidatePath drops the answers of every spelling of the path a route answers", async () => {
    await kept("/MEMO?q=spelling");
    await kept("/memo/?q=spelling");
    await revalidatePath("/memo");
    for (const path of ["/MEMO?q=spelling", "/memo/?q=spelling"]) expect((await get(path)).cache).toBe("miss");
  });

  test("revalidateTag and revalidatePath reject what is not a tag or a path", async () => {
    await expect(revalidateTag("")).rejects.toThrow(TypeError);
    await expect(revalidatePath("memo")).rejects.toThrow(/starting with/);
    await expect(revalidatePath("/memo?q=1")).rejects.toThrow(/without \? or #/);
  });

  test("revalidatePath of `//memo` is the path //memo, not a host named memo", async () => {
    await kept("/memo?q=slashes");
    await revalidatePath("//memo");
    expect((await get("/memo?q=slashes")).cache).toBe("hit");
  });
});

describe("a stale answer", () => {
  test("goes out while one render replaces it; past its stale time it is rendered again before answering", async () => {
    const first = await kept("/memo?q=stale");
    const start = Date.now();
    setSystemTime(start + 61_000);
    const before = (await stats()).stored;
    const stale = await Promise.all([get("/memo?q=stale"), get("/memo?q=stale"), get("/memo?q=stale")]);
    for (const answer of stale) {
      expect(answer.cache).toBe("stale");
      expect(answer.render).toBe(first.render);
    }
    await until(async () => (await stats()).stored > before, "the stale answer replaced");
    // One render replaced it, however many stale answers went out.
    expect((await stats()).stored).toBe(before + 1);
    const fresh = await get("/memo?q=stale");
    expect(fresh.cache).toBe("hit");
    expect(fresh.render).toBeGreaterThan(first.render);
    setSystemTime(start + 200_000);
    expect((await get("/memo?q=stale")).cache).toBe("miss");
  });
});

describe("never kept for another visitor", () => {
  test("a page whose loader read the session in one branch: two visitors at once each get their own", async () => {
    const signIn = async (name: string) => {
      const res = await t.request(`/memo-sign-in?as=${name}`);
      await res.text();
      return res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    };
    const [ada, bob] = await Promise.all([signIn("ada"), signIn("bob")]);
    const rounds = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        get("/memo-personal?mine=1", { headers: { cookie: i % 2 ? bob : ada } }).then((r) => [i, r] as const),
      ),
    );
    for (const [i, answer] of rounds) {
      expect(answer.html).toContain(`<output id="name">${i % 2 ? "bob" : "ada"}</output>`);
      expect(answer.cache).toBeNull();
    }
    const anonymous = await get("/memo-personal?mine=1");
    expect(anonymous.html).toContain('<output id="name">nobody</output>');
    // The branch that reads nothing of the visitor is kept, and shows no one.
    await kept("/memo-personal?other=1", { headers: { cookie: ada } });
    const shared = await get("/memo-personal?other=1", { headers: { cookie: bob } });
    expect(shared.cache).toBe("hit");
    expect(shared.html).toContain('<output id="name">anyone</output>');
  });

  test("a page whose loader reads a request header", async () => {
    await get("/memo-language", { headers: { "accept-language": "fr" } });
    const other = await get("/memo-language", { headers: { "accept-language": "de" } });
    expect(other.cache).toBeNull();
    expect(other.html).toContain("for <!-- -->de");
  });

  test("a page whose middleware reads the request", async () => {
    await get("/memo-request-guarded");
    expect((await get("/memo-request-guarded")).cache).toBeNull();
    expect((await get("/memo-request-guarded", { headers: { "x-deny": "1" } })).res.status).toBe(403);
  });
});

describe("a cached page with middleware", () => {
  test("runs its middleware before every kept answer: a guard that refuses is never passed", async () => {
    await revalidateTag("memo");
    const first = await kept("/memo-guarded");
    const runs = memoState.middlewareRuns;
    const hit = await get("/memo-guarded");
    expect(hit.cache).toBe("hit");
    expect(hit.render).toBe(first.render);
    expect(memoState.middlewareRuns).toBe(runs + 1);
    memoState.deny = true;
    const refused = await get("/memo-guarded");
    expect(refused.res.status).toBe(403);
    expect(refused.cache).toBeNull();
  });
});

describe("the cache's figures", () => {
  test("/healthz gives its size, budget and hit rate as JSON, and `ok` to anyone else", async () => {
    const figures = await stats();
    expect(figures.budget).toBe(32 * 1_048_576);
    expect(figures.entries).toBeGreaterThan(0);
    expect(figures.bytes).toBeGreaterThan(0);
    expect(figures.hitRate).toBeGreaterThan(0);
    expect((await (await t.request("/healthz")).text()).trim()).toBe("ok");
  });
});

describe("in development", () => {
  test("nothing is kept, and a cached route that reads the session is named once in a warning", async () => {
    const logs: LogRecord[] = [];
    const app = createApp(testConfig({ NODE_ENV: "development" }), await loadApp(), {
      assets: await clientAssets(),
      log: (record) => void logs.push(record),
    });
    const request = (path: string) => app.handle(new Request(`http://localhost${path}`)).then((r) => r.text());
    const renders = memoState.renders;
    await request("/memo?q=dev");
    await request("/memo?q=dev");
    expect(memoState.renders).toBe(renders + 2);
    await request("/memo-personal?mine=1");
    await request("/memo-personal?mine=1");
    const warnings = logs.filter((r) => r.level === "warn" && String(r.msg).includes("/memo-personal"));
    expect(warnings.map((r) => r.msg)).toEqual([
      "route /memo-personal is cached, but its middleware or loaders read cookies (or the session): such answers are never kept",
    ]);
  });
});

describe("with tracing", () => {
  test("a cached page's boot script carries no trace for the browser to continue, another page's does", async () => {
    const traced = await serveWith(FIXTURE, {
      monitor: { traceHeaders: () => ({ "sentry-trace": "0123abcd-4567-1" }) },
    });
    const cached = await (await traced.request("/memo?q=traced")).text();
    expect(cached).toContain("Render");
    expect(cached).not.toContain("0123abcd");
    expect(await (await traced.request("/items/1")).text()).toContain("0123abcd");
  });
});

describe("options that cannot hold", () => {
  test("the start fails naming the route: a bad age, an empty tag, a page-less route, prerender, a shell", () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ component: () => null, cache: { maxAge: 0 } }, /route \/x: cache\.maxAge must be a number of seconds/],
      [{ component: () => null, cache: { maxAge: 5, staleWhileRevalidate: -1 } }, /staleWhileRevalidate/],
      [{ component: () => null, cache: { maxAge: 5, tags: [""] } }, /cache\.tags: a tag is a string/],
      [{ loader: () => ({}), cache: { maxAge: 5 } }, /a route without a page/],
      [{ component: () => null, prerender: true, cache: { maxAge: 5 } }, /prerendered already/],
      [{ component: () => null, shell: true, cache: { maxAge: 5 } }, /a shell's holes/],
    ];
    for (const [route, message] of cases)
      expect(() => checkCacheOptions([{ path: "/x", ...route } as RouteDefinition])).toThrow(message);
  });
});
