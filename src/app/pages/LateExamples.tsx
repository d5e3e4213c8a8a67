// LateExamples.tsx: sections that fail or end after the shell has gone out.
import { Suspense, use } from "react";
import { useLoaderData } from "../runtime/loader-data.tsx";
import { notFound } from "../runtime/outcome.ts";
import type { LoaderContext } from "../runtime/route.ts";
import { ExampleFrame } from "./ExampleFrame.tsx";
import { sleep } from "./sleep.ts";

export function lateErrorLoader({ signal }: LoaderContext) {
  return {
    section: sleep(100, signal).then((): string => {
      throw new Error("Example failure in a streamed section (/examples/late-error)");
    }),
  };
}

export function lateNotFoundLoader({ signal }: LoaderContext) {
  return { section: sleep(100, signal).then((): string => notFound()) };
}

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
