// SearchExample.tsx: /examples/search, a search whose URL the route's schema parses on the server: the query, the
// page and the sort, typed, with defaults. Its pager and sort links change some fields of the URL and keep the rest.
import { Form, Link, useLoaderData, useRouteSearch } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { searchLoader } from "./SearchExample.server.ts";
import { searchRoute } from "./SearchExample.route.ts";

export default function SearchExample() {
  const { q, results, first, total, pages } = useLoaderData<typeof searchLoader>();
  const [{ page, sort }, , searchHref] = useRouteSearch(searchRoute);
  return (
    <ExampleFrame title="Search">
      {/* A GET form: with JavaScript it loads the results on the client; without, the browser loads the URL. */}
      <Form method="get" action="/examples/search">
        <input name="q" id="search-q" defaultValue={q} aria-label="Query" />
        <button type="submit">Search</button>
      </Form>
      <p>
        You searched for: <output id="query">{q}</output> ({total} found)
      </p>
      <p>
        Sort: <Link to={searchHref({ sort: "new", page: undefined })}>newest first</Link> ·{" "}
        <Link to={searchHref({ sort: "old", page: undefined })}>oldest first</Link>
      </p>
      <ol id="results" start={first}>
        {results.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ol>
      <nav id="pager" aria-label="Pages">
        {page > 1 ? (
          <Link to={searchHref({ page: page - 1 })} rel="prev">
            ← Previous
          </Link>
        ) : null}{" "}
        Page <span id="page">{page}</span> of {pages}
        {sort ? ` (${sort === "new" ? "newest" : "oldest"} first)` : ""}{" "}
        {page < pages ? (
          <Link to={searchHref({ page: page + 1 })} rel="next">
            Next →
          </Link>
        ) : null}
      </nav>
    </ExampleFrame>
  );
}
