// Files.tsx: two routes declared splat first, `/examples/files/*` then `/examples/files/readme`: the more specific
// one still answers its own path, since routes are ranked, not tried in table order.
import { useParams } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";

export function FilesSplat() {
  const rest = useParams()["*"] ?? "";
  return (
    <ExampleFrame title="Files">
      <p>Any path under /examples/files/ that no other route takes; this one is:</p>
      <p id="splat">{rest}</p>
    </ExampleFrame>
  );
}

export function FilesReadme() {
  return (
    <ExampleFrame title="Files: readme">
      <p id="readme">readme</p>
    </ExampleFrame>
  );
}
