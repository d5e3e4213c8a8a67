import { useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { searchLoader } from "./SearchExample.server.ts";

export function SearchExample() {
  const { q } = useLoaderData<typeof searchLoader>();
  return (
    <ExampleFrame title="Search">
      <form method="get" action="/examples/search">
        <input name="q" defaultValue={q} aria-label="Query" />
        <button type="submit">Search</button>
      </form>
      <p>
        You searched for: <output id="query">{q}</output>
      </p>
    </ExampleFrame>
  );
}
