// chain.test.ts: runChain, the middleware chain the pages and the API routes share, on its own: the order its
// steps run in, what next() resolves to, a step that answers or throws, next() called twice, the checkpoint put
// back after a failure, and the inner response it drops. The pages' and the API's own use of it is tested through
// a real app in test/server/pages/middleware.test.tsx and test/server/api/api-middleware.test.ts.
import { describe, expect, test } from "bun:test";
import type { Middleware, MiddlewareArgs } from "../../../src/runtime/route.ts";
import { runChain, type MiddlewareFailure, type MiddlewareStep } from "../../../src/server/request/chain.ts";

/** What a step is handed: runChain passes it through unread, so one object serves every step. */
const ARGS = { request: new Request("http://localhost/") } as MiddlewareArgs;

/** Steps at depth 0, 1, …, in the order given, each making its args when it runs (and logging that). */
function stepsOf(log: string[], ...runs: Middleware[]): MiddlewareStep[] {
  return runs.map((run, depth) => ({
    run,
    depth,
    args: () => (log.push(`args ${depth}`), ARGS),
  }));
}

/** The innermost response, and each call of it logged with the failure it was handed. */
function responder(log: string[], body = "inner") {
  const failures: Array<MiddlewareFailure | undefined> = [];
  const respond = async (failure?: MiddlewareFailure) => {
    failures.push(failure);
    log.push(failure ? `respond failure at ${failure.depth}` : "respond");
    return new Response(failure ? `failed at ${failure.depth}` : body, { status: failure ? 500 : 200 });
  };
  return { failures, respond };
}

/** A response whose body reports being cancelled, for the responses a chain drops. */
function cancellable(text: string) {
  const cancelled = Promise.withResolvers<unknown>();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
    cancel: (reason) => cancelled.resolve(reason),
  });
  return { response: new Response(body), wasCancelled: () => Bun.peek.status(cancelled.promise) === "fulfilled" };
}

describe("runChain", () => {
  test("no steps: the response is respond()'s, with no failure", async () => {
    const log: string[] = [];
    const { failures, respond } = responder(log);
    const response = await runChain([], respond);
    expect(await response.text()).toBe("inner");
    expect(failures).toEqual([undefined]);
  });

  test("outermost first: each step runs around the ones after it and respond(), and makes its args as it starts", async () => {
    const log: string[] = [];
    const around =
      (name: string): Middleware =>
      async (_, next) => {
        log.push(`${name} before`);
        const response = await next();
        log.push(`${name} after`);
        return response;
      };
    const { respond } = responder(log);
    await runChain(stepsOf(log, around("outer"), around("middle"), around("inner")), respond);
    expect(log).toEqual([
      "args 0",
      "outer before",
      "args 1",
      "middle before",
      "args 2",
      "inner before",
      "respond",
      "inner after",
      "middle after",
      "outer after",
    ]);
  });

  test("next() resolves to the response of the rest of the chain, which the step may change and pass on", async () => {
    const log: string[] = [];
    const { respond } = responder(log);
    const seen: Response[] = [];
    const response = await runChain(
      stepsOf(log, async (_, next) => {
        const inner = await next();
        seen.push(inner);
        inner.headers.set("x-stamped", "yes");
        return inner;
      }),
      respond,
    );
    expect(response).toBe(seen[0]!);
    expect(response.headers.get("x-stamped")).toBe("yes");
    expect(await response.text()).toBe("inner");
  });

  test("an inner step's own Response is what next() resolves to in the step around it", async () => {
    const log: string[] = [];
    const { respond } = responder(log);
    const own = new Response("from the inner step", { status: 202 });
    let seen: Response | undefined;
    await runChain(
      stepsOf(
        log,
        async (_, next) => {
          seen = await next();
        },
        () => own,
      ),
      respond,
    );
    expect(seen).toBe(own);
  });

  test("a step that returns a Response without next() answers with it: no later step, no respond()", async () => {
    const log: string[] = [];
    const { failures, respond } = responder(log);
    const answer = new Response("teapot", { status: 418 });
    const response = await runChain(
      stepsOf(
        log,
        () => answer,
        () => void log.push("never"),
      ),
      respond,
    );
    expect(response).toBe(answer);
    expect(failures).toEqual([]);
    expect(log).toEqual(["args 0"]);
  });

  test("a step that returns nothing without next() lets the request go on, as if it had called it", async () => {
    const log: string[] = [];
    const { respond } = responder(log);
    const response = await runChain(
      stepsOf(
        log,
        () => void log.push("guard passes"),
        () => void log.push("fills the context"),
      ),
      respond,
    );
    expect(await response.text()).toBe("inner");
    expect(log).toEqual(["args 0", "guard passes", "args 1", "fills the context", "respond"]);
  });

  test("a step that throws before next(): respond(failure) at its depth, and nothing after it runs", async () => {
    const log: string[] = [];
    const { failures, respond } = responder(log);
    const error = new Error("refused");
    const response = await runChain(
      stepsOf(
        log,
        () => {},
        () => {
          throw error;
        },
        () => void log.push("never"),
      ),
      respond,
    );
    expect(failures).toEqual([{ error, depth: 1 }]);
    expect(response.status).toBe(500);
    expect(log).toEqual(["args 0", "args 1", "respond failure at 1"]);
  });

  test("a step around a failure gets the failure's response from next(), not the error", async () => {
    const log: string[] = [];
    const { respond } = responder(log);
    let seen = "";
    await runChain(
      stepsOf(
        log,
        async (_, next) => {
          seen = await (await next()).text();
        },
        () => Promise.reject(new Error("inner refused")),
      ),
      respond,
    );
    expect(seen).toBe("failed at 1");
  });

  test("a respond() that rejects a failure (the API's) rejects next() around it: that step fails in turn", async () => {
    const log: string[] = [];
    const inner = new Error("inner refused");
    const failures: MiddlewareFailure[] = [];
    const chain = runChain(
      stepsOf(
        log,
        async (_, next) => {
          await next();
          log.push("never");
        },
        () => {
          throw inner;
        },
      ),
      (failure) => {
        if (!failure) return Promise.resolve(new Response("inner"));
        failures.push(failure);
        return Promise.reject(failure.error);
      },
    );
    await expect(chain).rejects.toBe(inner);
    expect(failures).toEqual([
      { error: inner, depth: 1 },
      { error: inner, depth: 0 },
    ]);
    expect(log).not.toContain("never");
  });

  test("next() called twice is the step's own failure, at its depth", async () => {
    const log: string[] = [];
    const { failures, respond } = responder(log);
    const response = await runChain(
      stepsOf(log, async (_, next) => {
        await next();
        return next();
      }),
      respond,
    );
    expect(failures).toHaveLength(2);
    expect(failures[0]).toBeUndefined();
    expect(failures[1]!.depth).toBe(0);
    expect(String(failures[1]!.error)).toContain("next() was called twice");
    expect(await response.text()).toBe("failed at 0");
    // The rest of the chain ran once.
    expect(log.filter((line) => line === "respond")).toHaveLength(1);
  });

  test("a checkpoint is taken at each next(); a step that throws after it puts back its own, and only then", async () => {
    const log: string[] = [];
    const { respond } = responder(log);
    let taken = 0;
    const checkpoint = () => {
      const at = taken++;
      log.push(`checkpoint ${at}`);
      return () => void log.push(`restore ${at}`);
    };
    await runChain(
      stepsOf(
        log,
        async (_, next) => {
          await next();
          throw new Error("after next");
        },
        async (_, next) => next(),
      ),
      respond,
      checkpoint,
    );
    expect(log).toEqual([
      "args 0",
      "checkpoint 0",
      "args 1",
      "checkpoint 1",
      "respond",
      "restore 0",
      "respond failure at 0",
    ]);
  });

  test("the inner response a step replaces is cancelled, not leaked; the one it passes on is left alone", async () => {
    const log: string[] = [];
    const dropped = cancellable("dropped page");
    const replaced = await runChain(
      stepsOf(log, async (_, next) => {
        await next();
        return new Response("the step's own");
      }),
      async () => dropped.response,
    );
    expect(await replaced.text()).toBe("the step's own");
    // Cancelled before the chain answered: the chain waits for it.
    expect(dropped.wasCancelled()).toBe(true);

    const kept = cancellable("kept page");
    const passed = await runChain(
      stepsOf(log, async (_, next) => next()),
      async () => kept.response,
    );
    expect(await passed.text()).toBe("kept page");
    expect(kept.wasCancelled()).toBe(false);
  });

  test("the inner response of a step that throws after next() is cancelled before the failure's is made", async () => {
    const log: string[] = [];
    const dropped = cancellable("dropped page");
    const response = await runChain(
      stepsOf(log, async (_, next) => {
        await next();
        throw new Error("after next");
      }),
      async (failure) => {
        if (!failure) return dropped.response;
        // By now the dropped response is cancelled: its render stops before the failure's starts.
        log.push(`cancelled first: ${dropped.wasCancelled()}`);
        return new Response("failure", { status: 500 });
      },
    );
    expect(response.status).toBe(500);
    expect(log).toContain("cancelled first: true");
  });

  test("an inner response the step has read is its own to finish: answering after reading it is no error", async () => {
    const log: string[] = [];
    const { failures, respond } = responder(log, "the page");
    const response = await runChain(
      stepsOf(log, async (_, next) => new Response(`${(await (await next()).text()).length} bytes`)),
      respond,
    );
    expect(await response.text()).toBe("8 bytes");
    expect(failures).toEqual([undefined]);
  });
});
