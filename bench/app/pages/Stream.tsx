// Stream.tsx: the shell goes out at once; the section streams in when its value arrives.
import { Suspense, use } from "react";
import { useLoaderData } from "brisk";
import { Frame } from "./Frame.tsx";
import type { streamLoader } from "./stream.server.ts";

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

export function Stream() {
  const data = useLoaderData<typeof streamLoader>();
  return (
    <Frame title="Streaming">
      <p>The shell was sent at once (requested at {data.requestedAt}). The section below streams in 300 ms later.</p>
      <Suspense fallback={<p id="streamed-fallback">Loading the streamed section…</p>}>
        <Section section={data.section} />
      </Suspense>
    </Frame>
  );
}
