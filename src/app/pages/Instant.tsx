// Instant.tsx: streamed values that settled before the shell rendered show as late ones do: the ready one in
// its section, the failed one as its section's error with the server's digest.
import { Component, Suspense, use, type ReactNode } from "react";
import { useLoaderData } from "brisk";
import { ErrorDetails } from "../fallbacks/ErrorDetails.tsx";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { instantLoader } from "./Instant.server.ts";

/** A section's own error boundary: the rest of the page stays. A streamed error carries the server's digest. */
class SectionError extends Component<{ children: ReactNode }, { error?: Error & { digest?: string } }> {
  override state: { error?: Error & { digest?: string } } = {};

  static getDerivedStateFromError(error: Error & { digest?: string }) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="section-error" role="alert">
        <p>This section failed on the server.</p>
        <ErrorDetails digest={error.digest} />
      </div>
    );
  }
}

function Value({ value, id }: { value: Promise<string>; id: string }) {
  return <output id={id}>{use(value)}</output>;
}

export function Instant() {
  const { ready, failed } = useLoaderData<typeof instantLoader>();
  return (
    <ExampleFrame title="Settled before the shell">
      <p>
        Both values below are promises the loader returned already settled (<code>Promise.resolve</code>,{" "}
        <code>Promise.reject</code>), as a cache hit would be. They stream like any other: each has its section.
      </p>
      <h2>Resolved</h2>
      <Suspense fallback={<p>Loading…</p>}>
        <p>
          <Value value={ready} id="instant" />
        </p>
      </Suspense>
      <h2>Rejected</h2>
      <SectionError>
        <Suspense fallback={<p>Loading…</p>}>
          <p>
            <Value value={failed} id="failed" />
          </p>
        </Suspense>
      </SectionError>
    </ExampleFrame>
  );
}
