// LateExamples.tsx: sections that fail or end after the shell has gone out.
import { Suspense, use } from "react";
import { useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { lateErrorLoader } from "./LateExamples.server.ts";

function Section({ section }: { section: Promise<string> }) {
  return <p>{use(section)}</p>;
}

function LateExample({ title }: { title: string }) {
  const { section } = useLoaderData<typeof lateErrorLoader>();
  return (
    <ExampleFrame title={title}>
      <p>The shell went out with status 200. The section below ends after it.</p>
      <Suspense fallback={<p>Loading the section…</p>}>
        <Section section={section} />
      </Suspense>
    </ExampleFrame>
  );
}

export const LateError = () => <LateExample title="Late error" />;
export const LateNotFound = () => <LateExample title="Late not found" />;
