// /examples/shell through the server in-process: partial prerendering of a page of about 10 KB whose one hole
// greets the signed-in visitor. Two visitors signed in as two users and one anonymous get their own greeting,
// and the same shell bytes but the nonce.
import { beforeAll, expect, test } from "bun:test";
import { serveApp, type ServedApp } from "brisk/test";
import { sessionCookieOf } from "./session-cookie.ts";

let t: ServedApp;
beforeAll(async () => {
  t = await serveApp();
  await t.prerendered();
});

async function signIn(name: string): Promise<string> {
  const res = await t.request("/examples/session", {
    method: "POST",
    headers: { origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" },
    body: `name=${encodeURIComponent(name)}`,
  });
  expect(res.status).toBe(303);
  return sessionCookieOf(res);
}

/** The page as a visitor with `cookie` gets it: the greeting, and the shell's bytes with the nonce blanked. */
async function visit(cookie: string) {
  const res = await t.request("/examples/shell", { headers: { cookie, accept: "text/html" } });
  expect(res.status).toBe(200);
  const html = await res.text();
  const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers.get("content-security-policy")!)![1]!;
  const boot = html.indexOf(`<script nonce="${nonce}">window.__BRISK__=`);
  expect(boot).toBeGreaterThan(0);
  return {
    hello: /<output id="hello">([^<]*)<\/output>/.exec(html)?.[1],
    shell: html.slice(0, boot).replaceAll(nonce, "NONCE"),
    nonce,
  };
}

test("two signed-in visitors and an anonymous one: each their own greeting, the same shell bytes but the nonce", async () => {
  const [ada, grace] = await Promise.all([signIn("Ada"), signIn("Grace <Hopper>")]);
  const [a, g, nobody] = await Promise.all([visit(ada), visit(grace), visit("")]);
  expect([a.hello, g.hello, nobody.hello]).toEqual(["Ada", "Grace &lt;Hopper&gt;", "nobody"]);
  expect(new Set([a.nonce, g.nonce, nobody.nonce]).size).toBe(3);
  expect(g.shell).toBe(a.shell);
  expect(nobody.shell).toBe(a.shell);
  expect(a.shell).not.toContain("Ada");
  // The static part of a page of about 10 KB, which the server never renders again.
  expect(a.shell.length).toBeGreaterThan(7 * 1024);
  expect(a.shell.length).toBeLessThan(12 * 1024);
});
