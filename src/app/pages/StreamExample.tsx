import { Suspense, use } from "react";
import { useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { streamLoader } from "./StreamExample.server.ts";

function Section({ section }: { section: ReturnType<typeof streamLoader>["section"] }) {
  const { items, readyAt } = use(section);
  return (
    <section id="streamed-section">
      <h2>Streamed section</h2>
      <p>Arrived at {readyAt}.</p>
      <ul>
        {items.map((i) => (
          <li key={i}>{i}</li>
        ))}
      </ul>
    </section>
  );
}

export function StreamExample() {
  const data = useLoaderData<typeof streamLoader>();
  return (
    <ExampleFrame title="Streaming">
      <p>
        The shell was sent at once (requested at {data.requestedAt}). The section below streams in about 300 ms later.
      </p>
      <Suspense fallback={<p id="streamed-fallback">Loading the streamed section…</p>}>
        <Section section={data.section} />
      </Suspense>
    </ExampleFrame>
  );
}
