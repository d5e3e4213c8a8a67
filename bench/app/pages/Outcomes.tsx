// Outcomes.tsx: the components of the failing pages (outcomes.server.ts).
import { Suspense, use } from "react";
import { useLoaderData } from "brisk";
import { Frame } from "./Frame.tsx";
import type { lateErrorLoader } from "./outcomes.server.ts";

/** The component of a route whose loader always ends it; it never renders. */
export const Never = () => null;

function Broken(): never {
  throw new Error("Bench failure while rendering the shell (/render-error)");
}

export const RenderError = () => (
  <Frame title="Render error">
    <Broken />
  </Frame>
);

function Section({ section }: { section: Promise<string> }) {
  return <p>{use(section)}</p>;
}

/** The shell goes out with 200; the section then fails or ends in not found. */
export function LateSection() {
  const { section } = useLoaderData<typeof lateErrorLoader>();
  return (
    <Frame title="Late section">
      <Suspense fallback={<p>Loading the section…</p>}>
        <Section section={section} />
      </Suspense>
    </Frame>
  );
}
