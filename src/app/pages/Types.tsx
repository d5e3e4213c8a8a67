// Types.tsx: the loader's values used as what they are (a method of each, a BigInt sum), computed in the page,
// on the server and again while hydrating: the same text both times, or React would say they differ.
import { useLoaderData } from "brisk";
import { ExampleFrame } from "./ExampleFrame.tsx";
import type { typesLoader } from "./Types.server.ts";

export function Types() {
  const { when, tags, counts, big, link, missing } = useLoaderData<typeof typesLoader>();
  return (
    <ExampleFrame title="Data on the wire">
      <p>
        The loader returns a <code>Date</code>, a <code>Set</code>, a <code>Map</code>, a <code>BigInt</code>, a{" "}
        <code>URL</code> and an <code>undefined</code> key. JSON would turn them into strings, empty objects or nothing
        at all (and a BigInt into an error); here the page calls their methods, in the browser as on the server.
      </p>
      <p>
        <code>when.getTime()|tags.has("a")|counts.get("x")|big + 1n|link.hostname|missing === undefined</code>:
      </p>
      <p>
        <output id="types">{`${when.getTime()}|${tags.has("a")}|${counts.get("x")}|${big + 1n}|${link.hostname}|${missing === undefined}`}</output>
      </p>
    </ExampleFrame>
  );
}
