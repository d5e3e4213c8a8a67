// Nested.tsx: /examples/nested, a layout whose children render in its <Outlet />: the layout's state (the
// input) and data (its loader's run count) stay while a visitor moves between them, and a child's not-found
// or error shows inside it.
import {
  Link,
  Outlet,
  route,
  useFetcher,
  useLoaderData,
  useLocation,
  useRouteData,
  type ErrorPageProps,
  type Href,
} from "brisk";
import { ErrorDetails } from "../fallbacks/ErrorDetails.tsx";
import { ExampleFrame } from "./ExampleFrame.tsx";
import { brokenLoader, bumpAction, itemLoader, nestedLoader, slowLoader } from "./Nested.server.ts";
import { NeverRendered } from "./NeverRendered.tsx";

/**
 * The layout's route, declared beside its pages: the index reads the layout's data by this object
 * (`useRouteData(nestedRoute)`), typed by its loader. The pages are function declarations, so the table can name
 * them before this module's code has run down to them.
 */
export const nestedRoute = route("/examples/nested", {
  // A layout: its children render in its <Outlet />, and their not-found and errors show there too.
  id: "nested",
  component: NestedLayout,
  loader: nestedLoader,
  fallbacks: { "not-found": NestedNotFound, error: NestedError },
  children: (child) => [
    child.index({ component: NestedIndex }),
    child("items/:id", { component: NestedItem, loader: itemLoader }),
    child("broken", { component: NeverRendered, loader: brokenLoader }),
    child("slow", { component: NestedSlow, loader: slowLoader }),
    // A route without a page, whose action redirects to the layout.
    child("bump", { action: bumpAction }),
  ],
});

const LINKS: ReadonlyArray<{ href: Href; label: string }> = [
  { href: "/examples/nested", label: "Index" },
  { href: "/examples/nested/items/1", label: "Item 1" },
  { href: "/examples/nested/items/2", label: "Item 2" },
  { href: "/examples/nested/items/404", label: "Item 404 (not found)" },
  { href: "/examples/nested/broken", label: "Broken (an error)" },
  { href: "/examples/nested/slow", label: "Slow (two 300 ms loaders)" },
];

function NestedNav() {
  const [location] = useLocation();
  return (
    <nav id="nested-nav" className="nested-nav">
      {LINKS.map(({ href, label }) => (
        <Link key={href} href={href} aria-current={location === href ? "page" : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}

function NestedLayout() {
  const { loads, name, bumps } = useLoaderData<typeof nestedLoader>();
  return (
    <ExampleFrame title="Nested routes">
      <p>
        This frame is a layout: its route has a loader of its own and renders its child where it puts{" "}
        <code>&lt;Outlet /&gt;</code>. Type something below, then follow the links: the text stays and the count does
        not move, because moving between the children neither re-mounts the layout nor runs its loader again.
      </p>
      <NestedNav />
      <label className="nested-input">
        Kept across the children <input id="nested-input" placeholder="Type here" />
      </label>
      <p className="nested-facts">
        Layout loader runs in this process: <span id="layout-loads">{loads}</span>. Signed in as:{" "}
        <span id="whoami">{name ?? "nobody"}</span> (<Link href="/examples/session">sign in</Link>). Bumps:{" "}
        <span id="bumps">{bumps}</span>.
      </p>
      <section className="nested-child">
        <Outlet />
      </section>
    </ExampleFrame>
  );
}

function NestedIndex() {
  // A level below reads the layout's data by the layout's route object: typed, and never undefined here.
  const layout = useRouteData(nestedRoute);
  const bump = useFetcher();
  return (
    <>
      <p id="nested-index">
        {`The index route answers the layout's own path. It reads the layout's data too: hello, ${layout.name ?? "nobody"}. Pick a child above.`}
      </p>
      {/* Posts to a route without a page, which redirects back here: the layout's count moves, with no reload. */}
      <bump.Form action="/examples/nested/bump" className="nested-bump">
        <button type="submit" id="nested-bump" disabled={bump.state !== "idle"}>
          Bump the layout's count
        </button>
      </bump.Form>
    </>
  );
}

function NestedItem() {
  const { id } = useLoaderData<typeof itemLoader>();
  // One text node: `Item {id}` would render as two, with a comment between them in the HTML.
  return <p id="item">{`Item ${id}`}</p>;
}

function NestedSlow() {
  const { waited } = useLoaderData<typeof slowLoader>();
  return (
    <p id="slow">
      {`This route's loader waited ${waited} ms, and so did the layout's on this path: they ran side by side, so the page cost one wait, not two.`}
    </p>
  );
}

/** The layout's not-found page, shown in its Outlet: the nav and the input stay around it. */
function NestedNotFound() {
  return (
    <div className="nested-fallback" role="status">
      <h2>
        <span className="code">404</span> Not in this layout
      </h2>
      <p>There is no such item. The layout around this message is still here: pick another child above.</p>
    </div>
  );
}

/** The layout's error page, shown in its Outlet, with the digest as on the app-wide error page. */
function NestedError({ side, ...details }: ErrorPageProps) {
  return (
    <div className="nested-fallback nested-error" role="alert">
      <h2>This part of the page failed</h2>
      <p>A {side}-side exception stopped this child route; the layout around it still works.</p>
      <ErrorDetails {...details} />
    </div>
  );
}
