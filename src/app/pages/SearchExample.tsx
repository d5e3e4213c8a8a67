import { Form, useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { searchLoader } from "./SearchExample.server.ts";

export function SearchExample() {
  const { q } = useLoaderData<typeof searchLoader>();
  return (
    <ExampleFrame title="Search">
      {/* A GET form: with JavaScript it loads the results on the client; without, the browser loads the URL. */}
      <Form method="get" action="/examples/search">
        <input name="q" id="search-q" defaultValue={q} aria-label="Query" />
        <button type="submit">Search</button>
      </Form>
      <p>
        You searched for: <output id="query">{q}</output>
      </p>
    </ExampleFrame>
  );
}
