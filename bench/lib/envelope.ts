// envelope.ts: a browser-sized Sentry envelope, shaped like what @sentry/react sends through a tunnel.

/**
 * Header with `dsn` (SDKs add it only when a tunnel is set), an event item header, and an error
 * event with a short stack, breadcrumbs and request info: about 1.5 KB, a typical browser error.
 */
export function browserEnvelope(dsn: string): string {
  const eventId = "5f0c4a7e9b2d4e81a3c6f1d2e4b7a9c0";
  const traceId = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
  const release = "brisk@3ddmpav2tl06r";
  const sdk = { name: "sentry.javascript.react", version: "11.12.0" };
  const header = {
    event_id: eventId,
    sent_at: "2026-11-25T22:07:24.415Z",
    sdk,
    dsn,
    trace: { environment: "production", release, public_key: "publickey", trace_id: traceId, sample_rand: "0.4213" },
  };
  const frame = (fn: string, line: number) => ({
    filename: "http://127.0.0.1:3000/assets/entry-client-7m6qn5f6.js",
    function: fn,
    in_app: true,
    lineno: 1,
    colno: line,
  });
  const event = {
    exception: {
      values: [
        {
          type: "TypeError",
          value: "Cannot read properties of undefined (reading 'items')",
          stacktrace: { frames: [frame("Mh", 48211), frame("onClick", 51877), frame("Section", 53904)] },
          mechanism: { type: "auto.function.react.error_handler", handled: false },
        },
      ],
    },
    level: "error",
    event_id: eventId,
    platform: "javascript",
    request: {
      url: "http://127.0.0.1:3000/items",
      headers: {
        "User-Agent":
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36",
      },
    },
    timestamp: 1795558044.415,
    environment: "production",
    release,
    sdk,
    tags: { digest: "k3j2h4g5f6" },
    breadcrumbs: [
      { timestamp: 1795558040.1, category: "navigation", data: { from: "/", to: "/items" } },
      { timestamp: 1795558043.9, category: "ui.click", message: "main > button.throw" },
    ],
    contexts: { trace: { trace_id: traceId, span_id: "b7a9c0d1e2f30415" } },
  };
  return `${JSON.stringify(header)}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event)}\n`;
}
