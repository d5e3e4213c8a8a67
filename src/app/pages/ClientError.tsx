import { useState } from "react";
import { ExampleFrame } from "./ExampleFrame.tsx";

function Bomb(): never {
  throw new Error("Example failure in the browser (/examples/client-error)");
}

export function ClientError() {
  const [armed, setArmed] = useState(false);
  return (
    <ExampleFrame title="Client error">
      <p>This page rendered fine. The button makes a component throw in the browser.</p>
      <button type="button" onClick={() => setArmed(true)}>
        Throw an error
      </button>
      {armed ? <Bomb /> : null}
    </ExampleFrame>
  );
}
