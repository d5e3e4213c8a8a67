// Proto.tsx: the keys of parsed JSON with a `__proto__` key, computed in the page on the server and again in the
// browser: the same on the document as after a client navigation.
import { useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { protoLoader } from "./Proto.server.ts";

export function Proto() {
  const { parsed } = useLoaderData<typeof protoLoader>();
  return (
    <ExampleFrame title="A __proto__ key">
      <p>
        The loader returns <code>{`JSON.parse('{"__proto__":{"x":1},"a":1}')`}</code>. JSON.parse makes{" "}
        <code>__proto__</code> an ordinary key; so does the page, whichever way its data came.
      </p>
      <p>
        <code>Object.keys(parsed).sort().join(",")</code>:{" "}
        <output id="proto">{Object.keys(parsed).sort().join(",")}</output>
      </p>
    </ExampleFrame>
  );
}
