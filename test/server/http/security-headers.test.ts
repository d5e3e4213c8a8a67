// Security headers on every response, a fresh CSP nonce per page, and CSP reports forwarded to Sentry.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { logFor, serveApp, startFakeIngest, type FakeIngest, type ServedApp } from "brisk/test";
import { FIXTURE } from "../../support/app.ts";
import { createSecurityHeaders } from "../../../src/server/http/security-headers.ts";

/** The fixture app with the sites that may frame it. */
const FRAMED = { ...FIXTURE, app: join(import.meta.dir, "../../fixtures/app/framed.ts") };

let t: ServedApp;
let framed: ServedApp;
beforeAll(async () => {
  [t, framed] = await Promise.all([serveApp(FIXTURE), serveApp(FRAMED)]);
});

/** The response's CSP, one directive each. */
const directives = (res: Response) => res.headers.get("content-security-policy")!.split("; ");
const frameAncestorsOf = (csp: string) => csp.split("; ").find((d) => d.startsWith("frame-ancestors "));
/** The security headers of a server whose app names these framing sources. */
const framedBy = (sources: string[]) =>
  createSecurityHeaders({ sentryDsn: undefined, hstsMaxAge: undefined }, { frameAncestors: sources });

const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];

describe("security headers", () => {
  test.each(["/", "/not-found", "/server-error", "/healthz", "/__data/", "/monitoring", "/assets/missing.js"])(
    "%s carries nosniff and Cross-Origin-Resource-Policy: same-origin, and no HSTS unless configured",
    async (path) => {
      const res = await t.request(path);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    },
  );

  test.each([
    [["'self'"]],
    [["https://partner.example", "https://*.partner.example:8443/embed/"]],
    [["https:"]],
    [["'none'"]],
  ])("%p: sources CSP reads as such are the app's to name", (sources: string[]) => {
    expect(frameAncestorsOf(framedBy(sources).csp("n"))).toBe(`frame-ancestors ${sources.join(" ")}`);
  });

  test.each([
    [["'self'; script-src *"]],
    [["https://a.example https://b.example"]],
    [["'unsafe-inline'"]],
    [["https://a.example,evil"]],
    [[""]],
    [["'none'", "'self'"]],
  ])("%p is refused when the server is made, never written into the policy", (sources: string[]) => {
    expect(() => framedBy(sources)).toThrow(/^frameAncestors: /);
  });

  test("HSTS_MAX_AGE puts Strict-Transport-Security on every response", async () => {
    const hsts = await serveApp({ ...FIXTURE, env: { HSTS_MAX_AGE: "31536000" } });
    for (const path of ["/", "/healthz", "/assets/missing.js", "/server-error"]) {
      const res = await hsts.request(path);
      expect({ path, hsts: res.headers.get("strict-transport-security") }).toEqual({ path, hsts: "max-age=31536000" });
    }
  });

  test("pages may be framed by no one, unless the app names who may", async () => {
    const frameAncestors = async (app: ServedApp) =>
      frameAncestorsOf((await app.request("/")).headers.get("content-security-policy")!);
    expect(await frameAncestors(t)).toBe("frame-ancestors 'none'");
    expect(await frameAncestors(framed)).toBe("frame-ancestors 'self' https://partner.example");
  });

  test.each(["/", "/not-found", "/server-error", "/forbidden"])(
    "the %s document carries a referrer policy, a permissions policy and COOP",
    async (path) => {
      const res = await t.request(path);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("permissions-policy")).toContain("camera=()");
      expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    },
  );

  test("assets carry nosniff and Cross-Origin-Resource-Policy: same-origin", async () => {
    const html = await (await t.request("/")).text();
    const entry = /"(\/assets\/entry-client-[^"]+\.js)"/.exec(html)![1]!;
    const res = await t.request(entry);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
  });

  test("HTML has a strict CSP whose nonce is on every inline script and preload, fresh per request", async () => {
    const res = await t.request("/late-error");
    const csp = res.headers.get("content-security-policy")!;
    for (const part of ["'strict-dynamic'", "object-src 'none'", "base-uri 'self'"]) expect(csp).toContain(part);
    const nonce = nonceOf(csp)!;
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(3);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    for (const tag of html.match(/<link rel="modulepreload"[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
    const again = nonceOf((await t.request("/late-error")).headers.get("content-security-policy"));
    expect(again).not.toBe(nonce);
  });

  test("the exception page rendered after a failed shell has the CSP too", async () => {
    const res = await t.request("/render-error");
    const nonce = nonceOf(res.headers.get("content-security-policy"))!;
    expect(await res.text()).toContain(`nonce="${nonce}"`);
  });
});

describe("HTML from a route without a page", () => {
  const DOCUMENT = ["content-security-policy", "referrer-policy", "permissions-policy", "cross-origin-opener-policy"];
  test("gets the document's headers, with a CSP that runs no script: no nonce, frame-ancestors 'none'", async () => {
    const res = await t.request("/preview");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<p>preview</p>");
    expect(directives(res)).toEqual(
      expect.arrayContaining(["script-src 'none'", "style-src 'self'", "object-src 'none'", "frame-ancestors 'none'"]),
    );
    expect(res.headers.get("content-security-policy")).not.toContain("nonce");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(res.headers.get("permissions-policy")).toContain("camera=()");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await t.request("/preview", { method: "HEAD" })).headers.get("content-security-policy")).toBe(
      res.headers.get("content-security-policy"),
    );
  });

  test.each(["TEXT/HTML", "text/html;charset=utf-8", "application/xhtml+xml"])(
    "%s is a document type too",
    async (type) => {
      const res = await t.request(`/preview?type=${encodeURIComponent(type)}`);
      for (const name of DOCUMENT) expect({ name, set: res.headers.has(name) }).toEqual({ name, set: true });
    },
  );

  test("who may frame it is the app's choice, as for pages", async () => {
    expect(directives(await framed.request("/preview"))).toContain("frame-ancestors 'self' https://partner.example");
  });

  test("a CSP the route set is its own, the other document headers still come", async () => {
    const res = await t.request("/preview?csp=own");
    expect(res.headers.get("content-security-policy")).toBe("script-src 'self'");
    expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  });

  test.each([
    ["/preview?type=text%2Fplain", "text/plain"],
    ["/feed.xml", "application/rss+xml"],
    ["/resource", "application/json"],
  ])("%s (%s) gets only the common headers", async (path) => {
    const res = await t.request(path);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    for (const name of DOCUMENT) expect({ name, value: res.headers.get(name) }).toEqual({ name, value: null });
  });
});

describe("CSP reports", () => {
  let ingest: FakeIngest;
  let withSentry: ServedApp;
  beforeAll(async () => {
    ingest = await startFakeIngest();
    withSentry = await serveApp({ ...FIXTURE, env: { SENTRY_DSN: ingest.dsn() } });
  });
  afterAll(() => ingest.stop());

  const report = JSON.stringify({
    "csp-report": { "document-uri": "http://localhost/", "violated-directive": "script-src", "blocked-uri": "inline" },
  });

  test("with Sentry on, the CSP names /monitoring/csp, which forwards to Sentry's security endpoint", async () => {
    const page = await withSentry.request("/");
    expect(page.headers.get("content-security-policy")).toContain("report-uri /monitoring/csp");
    const res = await withSentry.request("/monitoring/csp", {
      method: "POST",
      headers: { "content-type": "application/csp-report", cookie: "session=secret" },
      body: report,
    });
    expect(res.status).toBe(200);
    await ingest.waitFor(1);
    const got = ingest.received[0];
    expect(got!.path).toBe("/api/42/security/");
    expect(got!.search).toContain("sentry_key=publickey");
    expect(got!.text).toBe(report);
    expect(got!.headers.get("cookie")).toBeNull();
  });

  test("refuses other content types (415) and non-JSON (400)", async () => {
    const post = (type: string, body: string) =>
      withSentry.request("/monitoring/csp", { method: "POST", headers: { "content-type": type }, body });
    expect((await post("text/plain", report)).status).toBe(415);
    expect((await post("application/csp-report", "{nope")).status).toBe(400);
  });

  test("without Sentry, no report-uri and the endpoint says it is not configured", async () => {
    expect((await t.request("/")).headers.get("content-security-policy")).not.toContain("report-uri");
    const res = await t.request("/monitoring/csp", {
      method: "POST",
      headers: { "content-type": "application/csp-report" },
      body: report,
    });
    expect(res.status).toBe(404);
    expect(await logFor(t.logs, res)).toMatchObject({ level: "info", status: 404 });
  });
});
