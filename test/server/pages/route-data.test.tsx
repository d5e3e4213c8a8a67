// route-data.test.tsx: useRouteData(route) reads a layout's loader data by the route object, on the server's render
// and after a client navigation's page data alike (both read the page's data by id); a route not on the page is an
// error of the app's, shown as one.
import { beforeAll, expect, test } from "bun:test";
import { Outlet, route, useRouteData, type LoaderContext } from "brisk";
import { defineApp } from "../../../src/runtime/app-definition.ts";
import { createApp } from "../../../src/server/create-app.ts";
import { clientAssets, loadApp, testConfig } from "../../support/app.ts";

const projectLoader = ({ params }: LoaderContext<{ id: string }>) => ({
  name: `project ${params.id}`,
  opened: new Date(Date.UTC(2026, 10, 29)),
});

function Issue() {
  const project = useRouteData(projectRoute);
  return <p id="issue">{`${project.name}, opened ${project.opened.toISOString().slice(0, 10)}`}</p>;
}

function Stray() {
  const elsewhere = useRouteData(otherRoute);
  return <p>{elsewhere.other}</p>;
}

const projectRoute = route("/projects/:id", {
  component: Outlet,
  loader: projectLoader,
  children: (child) => [child("issues/:issue", { component: Issue }), child("stray", { component: Stray })],
});
const otherRoute = route("/other", { component: Outlet, loader: () => ({ other: "x" }) });

let request: (path: string, init?: RequestInit) => Promise<Response>;
const captured: unknown[] = [];
beforeAll(async () => {
  const fixture = await loadApp();
  const app = createApp(
    testConfig(),
    defineApp({ ...fixture, routes: [projectRoute, otherRoute, ...fixture.routes] }),
    {
      assets: await clientAssets(),
      capture: (error) => void captured.push(error),
      log: () => {},
    },
  );
  request = (path, init) => app.handle(new Request(`http://localhost${path}`, init));
});

test("a page reads its layout's data by the layout's route object, as the loader returned it", async () => {
  const res = await request("/projects/7/issues/3");
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('<p id="issue">project 7, opened 2026-11-29</p>');
});

test("reading a route that is not above the page is the error page, reported once", async () => {
  const res = await request("/projects/7/stray");
  expect(res.status).toBe(500);
  expect(captured.map(String)).toEqual(["Error: useRouteData: the route /other is not on this page"]);
});
