// Prerendered pages and public files are answered before routing (stored-step.ts): what the pipeline's other steps
// add still holds there: one log line with the answer's request id, this server's security headers, the Host check,
// and a public file before the prerendered not-found page. Over a real socket, as Bun serves them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listenApp, type ListeningApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";
import { linesBefore } from "../../support/log-lines.ts";
import { rawExchange } from "../../support/raw-http.ts";

let server: ListeningApp;
beforeAll(async () => {
  server = await listenApp({ ...FIXTURE, env: { HSTS_MAX_AGE: "600" } });
  await server.prerendered();
});
afterAll(() => server.stop());

describe("a prerendered response", () => {
  for (const [path, status, route] of [
    ["/prerendered", 200, "/prerendered"],
    ["/no/such/page", 404, undefined],
  ] as const) {
    test(`${path}: one log line, whose id the answer carries, and the server's security headers`, async () => {
      const before = server.logs.length;
      const res = await fetch(`${server.origin}${path}`);
      await res.arrayBuffer();
      expect(res.status).toBe(status);
      const lines = await linesBefore(server, before);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: "info",
        msg: "request",
        method: "GET",
        path,
        status,
        requestId: res.headers.get("x-request-id"),
      });
      expect(lines[0]!.route).toBe(route);
      expect(res.headers.get("strict-transport-security")).toBe("max-age=600");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("'nonce-");
    });
  }

  test("a Host too short to route by is still refused, and logged once", async () => {
    const before = server.logs.length;
    const res = await rawExchange(server.port, "GET /prerendered HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(400);
    expect(await linesBefore(server, before)).toMatchObject([{ status: 400, path: "/prerendered" }]);
  });

  test("a public file is served at a path the prerendered not-found page would otherwise answer", async () => {
    const res = await fetch(`${server.origin}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/plain");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});
