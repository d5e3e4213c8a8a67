// The example app as a visitor meets it: the home page lists every example, and public/ and imported
// images are there. The framework's own behaviour is tested on the fixture app (test/server).
import { beforeAll, expect, test } from "bun:test";
import { EXAMPLE_APP_MODULE, testApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await testApp({}, { appModule: EXAMPLE_APP_MODULE });
});

test("the home page links to every example", async () => {
  const html = await (await t.request("/")).text();
  const examples = ["stream", "search?q=brisk", "redirect", "not-found", "forbidden", "unauthorized", "server-error", "render-error"];
  for (const path of [...examples, "late-error", "late-not-found", "client-error", "lazy"]) {
    expect(html).toContain(`href="/examples/${path}"`);
  }
});

test("robots.txt and the favicon come from public/, and the document links the icon", async () => {
  const robots = await t.request("/robots.txt");
  expect(robots.status).toBe(200);
  expect(await robots.text()).toContain("User-agent");
  const icon = await t.request("/favicon.ico");
  expect(icon.status).toBe(200);
  expect(icon.headers.get("content-type")).toBe("image/x-icon");
  expect(await (await t.request("/")).text()).toContain('<link rel="icon" href="/favicon.ico"/>');
});

test("the home page's logo is an imported image, served from /assets/", async () => {
  const html = await (await t.request("/")).text();
  const src = /<img class="logo" src="(\/assets\/brisk-logo-[a-z0-9]+\.svg)"/.exec(html)?.[1];
  expect(src).toBeDefined();
  const res = await t.request(src!);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("immutable");
});
