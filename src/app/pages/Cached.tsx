// Cached.tsx: shows when it was rendered, so a cached copy is easy to tell from a fresh one.
import { useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { cachedLoader } from "./Cached.server.ts";

export function Cached() {
  const { renderedAt } = useLoaderData<typeof cachedLoader>();
  return (
    <ExampleFrame title="Cached">
      <p>
        Its loader sets <code>Cache-Control: public, max-age=60</code>, on this document and on its page data. Rendered
        at <time dateTime={renderedAt}>{renderedAt}</time>.
      </p>
    </ExampleFrame>
  );
}
