// useUrl: the page's path, search and hash together; the hash is the browser's alone (the server renders none),
// and it follows a hash change as the path and search follow a navigation.
import { afterEach, expect, test } from "bun:test";
import { act, cleanup } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { AppContext, appRuntime } from "../../src/runtime/app-context.ts";
import type { NavState } from "../../src/runtime/navigation.ts";
import { useUrl } from "../../src/runtime/page-url.ts";
import { pagePayload, testNavigation } from "../../src/server/testing/dom.tsx";
import fixtureApp from "../fixtures/app/app.ts";
import { committing, renderWith } from "./render.tsx";

afterEach(() => {
  cleanup();
  history.replaceState(null, "", "/");
});

function Where() {
  const url = useUrl();
  return <output>{JSON.stringify(url)}</output>;
}

const shown = () => JSON.parse(document.querySelector("output")!.textContent!);

/** A navigation on `/items?page=2` whose page moves when told, as a client navigation commits it. */
function movingNavigation() {
  const { navigation, store } = committing(testNavigation(pagePayload({ path: "/items", search: "page=2" })).nav);
  const commit = (next: Pick<NavState, "path" | "search">) => store.commit({ ...store.getState(), ...next });
  return { navigation, commit };
}

test("the server renders the path and the search, and no hash: the browser never sends it", () => {
  // Even where a window has one (this one): what the server renders, hydration must render too.
  history.replaceState(null, "", "/items?page=2#reviews");
  const { nav } = testNavigation(pagePayload({ path: "/items", search: "page=2" }));
  const html = renderToString(
    <AppContext value={appRuntime({ app: fixtureApp, navigation: nav, settlements: [] })}>
      <Where />
    </AppContext>,
  );
  expect(html).toContain(JSON.stringify({ pathname: "/items", search: "?page=2", hash: "" }).replaceAll('"', "&quot;"));
});

test("in the browser: path, search (with its ?) and hash (with its #), following a navigation and a hash change", async () => {
  history.replaceState(null, "", "/items?page=2#reviews");
  const { navigation, commit } = movingNavigation();
  await renderWith(navigation, <Where />);
  expect(shown()).toEqual({ pathname: "/items", search: "?page=2", hash: "#reviews" });
  // A navigation sets the URL, then commits the page.
  history.pushState(null, "", "/lamps#top");
  await act(async () => commit({ path: "/lamps", search: "" }));
  expect(shown()).toEqual({ pathname: "/lamps", search: "", hash: "#top" });
  await act(async () => {
    history.pushState(null, "", "/lamps#bottom");
    dispatchEvent(new HashChangeEvent("hashchange"));
  });
  expect(shown()).toEqual({ pathname: "/lamps", search: "", hash: "#bottom" });
});
