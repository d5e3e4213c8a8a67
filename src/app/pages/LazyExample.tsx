// A code-split route: this module and LazyExample.css load only when the route does.
import { ExampleFrame } from "./ExampleFrame.tsx";

export default function LazyExample() {
  return (
    <ExampleFrame title="Code-split route">
      <p className="lazy-banner">This component came in its own chunk, styled by its own stylesheet.</p>
    </ExampleFrame>
  );
}
