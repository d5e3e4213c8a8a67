import { ExampleFrame } from "./ExampleFrame.tsx";

function Broken(): never {
  throw new Error("Example failure while rendering the shell (/examples/render-error)");
}

export function RenderError() {
  return (
    <ExampleFrame title="Render error">
      <Broken />
    </ExampleFrame>
  );
}
