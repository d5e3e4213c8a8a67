// sourcemap-annotations.ts: adds to a production source map what Bun leaves out and Sentry reads: the original
// names of the identifiers the minifier renamed, and which sources are dependencies.
import { TraceMap, decodedMappings, encodedMappings, type SourceMapSegment } from "@jridgewell/trace-mapping";

/** The fields of a source map this reads and writes; the rest (debugId…) is kept as it is. */
export interface SourcemapJson {
  sources: string[];
  sourcesContent?: Array<string | null>;
  names?: string[];
  mappings: string;
  ignoreList?: number[];
  x_google_ignoreList?: number[];
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/y;

/** The identifier that starts at `column` of `line`, if one starts there. */
function identifierAt(line: string | undefined, column: number): string | undefined {
  if (line === undefined || /[\w$]/.test(line[column - 1] ?? "")) return undefined;
  IDENTIFIER.lastIndex = column;
  return IDENTIFIER.exec(line)?.[0];
}

/**
 * Bun maps each renamed identifier (`function Sd(`) to where the original one is written (`function
 * ClientError(`), but records no `names`: Sentry then names a frame's function by its minified name. This
 * gives every segment whose minified identifier differs from its original one the original's name, as a
 * minifier that records names does.
 */
function nameRenamed(map: SourcemapJson, code: string): Pick<SourcemapJson, "names" | "mappings"> {
  const generated = code.split("\n");
  const original = (map.sourcesContent ?? []).map((text) => text?.split("\n"));
  const names = [...(map.names ?? [])];
  const nameIndex = new Map(names.map((name, i) => [name, i]));
  const mappings = decodedMappings(new TraceMap(map as never)).map((segments, line) =>
    segments.map((segment): SourceMapSegment => {
      if (segment.length !== 4) return segment;
      const [column, source, sourceLine, sourceColumn] = segment;
      const minified = identifierAt(generated[line], column);
      const name = minified && identifierAt(original[source]?.[sourceLine], sourceColumn);
      if (!name || name === minified) return segment;
      let index = nameIndex.get(name);
      if (index === undefined) nameIndex.set(name, (index = names.push(name) - 1));
      return [column, source, sourceLine, sourceColumn, index];
    }),
  );
  return { names, mappings: encodedMappings(new TraceMap({ ...map, names, mappings } as never)) };
}

/**
 * Dependencies' sources in the map's ignore list (ECMA-426 `ignoreList`, and the `x_google_` name older
 * readers know): a frame that maps into `node_modules/` is not the app's own, for Sentry as for devtools.
 */
function dependencySources(map: SourcemapJson): number[] {
  return map.sources.flatMap((source, i) => (/(^|\/)node_modules\//.test(source) ? [i] : []));
}

/** `map`, the source map of `code`, with names for what the minifier renamed and its dependencies ignored. */
export function annotateSourcemap<M extends SourcemapJson>(map: M, code: string): M {
  const ignoreList = dependencySources(map);
  return { ...map, ...nameRenamed(map, code), ignoreList, x_google_ignoreList: ignoreList };
}
