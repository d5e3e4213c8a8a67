// context.ts: one context per request, with its id (the server's own, or a trusted proxy's well-formed one), its
// path, its cookie jar and checkpoints of it, and reportError: a digest per failure, recorded and captured once.
import { describe, expect, test } from "bun:test";
import {
  contextOf,
  cookiesCheckpoint,
  cookiesOf,
  createRequestContext,
  reportError,
  type CaptureError,
  type ErrorContext,
  type RequestContext,
} from "../../../src/server/request/context.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DIGEST = /^[0-9a-z]{10}$/;
const COOKIES = { cookies: { secure: false } };

/** A request to the site's root with these headers. */
const root = (headers: Record<string, string> = {}) => new Request("http://localhost/", { headers });
const withId = (id: string) => root({ "x-request-id": id });
const withCookies = (cookie: string) => root({ cookie });

/** A capture that keeps what it was given. */
function capturing() {
  const calls: [unknown, ErrorContext][] = [];
  const capture: CaptureError = (error, context) => void calls.push([error, context]);
  return { calls, capture };
}

describe("contextOf", () => {
  test("one context per Request, however often asked, the first asking's options kept", () => {
    const request = new Request("http://localhost/a");
    const context = contextOf(request);
    expect(contextOf(request)).toBe(context);
    expect(contextOf(request, { trustIncomingId: true, ...COOKIES })).toBe(context);
    expect(cookiesOf(contextOf(request))).toBeUndefined();
  });

  test("another Request to the same URL has its own", () => {
    const [a, b] = [new Request("http://localhost/a"), new Request("http://localhost/a")];
    expect(contextOf(a)).not.toBe(contextOf(b));
    expect(contextOf(a).id).not.toBe(contextOf(b).id);
  });
});

describe("the request id", () => {
  test("a fresh UUID for each request", () => {
    const ids = [1, 2, 3].map(() => createRequestContext(root()).id);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
  });

  test("an incoming X-Request-Id is never taken without trustIncomingId", () => {
    const id = createRequestContext(withId("proxy-id-123")).id;
    expect(id).toMatch(UUID);
  });

  test.each([
    ["8 characters", "abcd1234"],
    ["every allowed sign", "proxy.id:1_2-3"],
    ["128 characters", "A".repeat(128)],
  ])("a trusted proxy's well-formed one is kept: %s", (_, incoming) => {
    expect(createRequestContext(withId(incoming), { trustIncomingId: true }).id).toBe(incoming);
  });

  test.each([
    ["7 characters", "abc1234"],
    ["129 characters", "A".repeat(129)],
    ["a space", "has space1"],
    ["a semicolon", "semi;colon1"],
    ["a slash", "slash/id12"],
    ["a letter beyond ASCII", "ünicode123"],
  ])("a trusted proxy's malformed one is replaced: %s", (_, incoming) => {
    expect(createRequestContext(withId(incoming), { trustIncomingId: true }).id).toMatch(UUID);
  });

  test("without the header, a trusted proxy's request gets a fresh one", () => {
    expect(createRequestContext(root(), { trustIncomingId: true }).id).toMatch(UUID);
  });
});

describe("the path and method", () => {
  test.each([
    ["http://localhost/shop/items/3?sort=new#top", "/shop/items/3"],
    ["http://localhost", "/"],
    ["http://localhost/?q=1", "/"],
    // A host shorter than Elysia's path search expects: the whole path still.
    ["http://x/ab/healthz", "/ab/healthz"],
  ])("%p is at %p", (url, path) => {
    expect(createRequestContext(new Request(url)).path).toBe(path);
  });

  test("the method is the request's", () => {
    expect(createRequestContext(new Request("http://localhost/", { method: "POST" })).method).toBe("POST");
  });
});

describe("cookiesOf", () => {
  test("undefined without cookie settings: a request no Brisk server made", () => {
    expect(cookiesOf(createRequestContext(withCookies("a=1")))).toBeUndefined();
  });

  test("the visitor's cookies, in one jar for the whole request", () => {
    const context = createRequestContext(withCookies("a=1; b=2"), COOKIES);
    const jar = cookiesOf(context)!;
    expect([jar.get("a"), jar.get("b"), jar.get("c")]).toEqual(["1", "2", undefined]);
    jar.set("c", "3");
    expect(cookiesOf(context)).toBe(jar);
    expect(cookiesOf(context)!.get("c")).toBe("3");
  });

  test("another request has a jar of its own", () => {
    const [a, b] = [createRequestContext(root(), COOKIES), createRequestContext(root(), COOKIES)];
    cookiesOf(a)!.set("only", "a");
    expect(cookiesOf(b)).not.toBe(cookiesOf(a));
    expect(cookiesOf(b)!.get("only")).toBeUndefined();
  });

  test("settings given to the call stand for a context made without them", () => {
    const context = createRequestContext(withCookies("a=1"));
    expect(cookiesOf(context, COOKIES.cookies)!.get("a")).toBe("1");
  });
});

describe("cookiesCheckpoint", () => {
  /** The names of the cookies the response would set or delete. */
  const names = (context: RequestContext) =>
    cookiesOf(context)!
      .setCookieHeaders()
      .map((header) => header.split("=")[0]);

  test("restoring keeps the changes made before it and drops those made after", () => {
    const context = createRequestContext(withCookies("gone=1"), COOKIES);
    cookiesOf(context)!.set("before", "1");
    const restore = cookiesCheckpoint(context);
    cookiesOf(context)!.set("after", "2");
    cookiesOf(context)!.delete("gone");
    restore();
    expect(names(context)).toEqual(["before"]);
    expect(cookiesOf(context)!.get("after")).toBeUndefined();
    expect(cookiesOf(context)!.get("gone")).toBe("1");
  });

  test("a checkpoint taken before the jar was made drops everything set after it", () => {
    const context = createRequestContext(withCookies("a=1"), COOKIES);
    const restore = cookiesCheckpoint(context);
    cookiesOf(context)!.set("after", "2");
    restore();
    expect(names(context)).toEqual([]);
    expect(cookiesOf(context)!.get("a")).toBe("1");
  });
});

describe("reportError", () => {
  const context = () => createRequestContext(new Request("http://localhost/shop/items/3?x=1", { method: "POST" }));

  test("gives the error a digest, records it for the log line and captures it with the request's details", () => {
    const record = context();
    record.route = "/shop/items/:id";
    const { calls, capture } = capturing();
    const error = new TypeError("no such item");
    const digest = reportError(record, error, "action", capture);
    expect(digest).toMatch(DIGEST);
    expect(record.errors).toEqual([
      { digest, phase: "action", name: "TypeError", message: "no such item", stack: error.stack },
    ]);
    expect(calls).toEqual([
      [
        error,
        {
          digest,
          route: "/shop/items/:id",
          requestId: record.id,
          phase: "action",
          method: "POST",
          path: "/shop/items/3",
        },
      ],
    ]);
  });

  test("the same error reported again, in another phase: its digest, neither recorded nor captured twice", () => {
    const record = context();
    const { calls, capture } = capturing();
    const error = new Error("once");
    const digest = reportError(record, error, "loader", capture);
    expect(reportError(record, error, "render", capture)).toBe(digest);
    expect(record.errors).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  test("an error that carries a digest already is not captured again: its digest stands", () => {
    const record = context();
    const { calls, capture } = capturing();
    const seen = Object.assign(new Error("reported before"), { digest: "abcdefghij" });
    expect(reportError(record, seen, "render", capture)).toBe("abcdefghij");
    expect(record.errors).toEqual([]);
    expect(calls).toEqual([]);
  });

  test("each failure its own digest; a thrown non-Error is recorded by its text", () => {
    const record = context();
    const { calls, capture } = capturing();
    const first = reportError(record, new Error("a"), "loader", capture);
    const second = reportError(record, "plain text", "deferred", capture);
    expect(second).not.toBe(first);
    expect(record.errors[1]).toMatchObject({ digest: second, phase: "deferred", name: "Error", message: "plain text" });
    expect(calls.map(([error, { route }]) => [error, route])).toEqual([
      [expect.any(Error), undefined],
      ["plain text", undefined],
    ]);
  });
});
