// sentry-frames.ts: where a server event's frames are: the project's files relative to it, in-app only for the
// project's own code, with their source lines from source and from the binary alike.
import { join, relative, resolve } from "node:path";
import { addContextToFrame, defineIntegration, type StackFrame } from "@sentry/core";

/** Where the binary embeds a copy of the project's own sources, under their paths in the project (build/binary.ts). */
export const EMBEDDED_SOURCES_DIR = "sources";

/** The project root when running from source; a compiled binary's frames are already relative to it. */
const SOURCE_ROOT = import.meta.dir.startsWith("/$bunfs/") ? undefined : resolve(import.meta.dir, "../../..");

/** As many lines either side of a frame's line as Sentry's own context lines give. */
const CONTEXT_LINES = 5;

/**
 * The binary's frames name the project's files relative to it (`src/app/…`), from its embedded source maps, and
 * no such file is on disk for Sentry's context lines to read (nor can its reader open the binary's embedded
 * files): this gives the project's frames their lines from the binary's embedded copy. Nothing from source.
 */
export const embeddedSourcesIntegration = defineIntegration(() => {
  const embedded = SOURCE_ROOT === undefined ? join(import.meta.dir, EMBEDDED_SOURCES_DIR) : undefined;
  // The project's own files only, so this holds at most one entry per file of the app and Brisk.
  const files = new Map<string, Promise<string[] | undefined>>();
  const linesOf = (file: string) => {
    let lines = files.get(file);
    if (!lines)
      files.set(
        file,
        (lines = Bun.file(join(embedded!, file))
          .text()
          .then(
            (text) => text.split("\n"),
            () => undefined,
          )),
      );
    return lines;
  };
  return {
    name: "BriskEmbeddedSources",
    async processEvent(event) {
      if (!embedded) return event;
      for (const value of event.exception?.values ?? []) {
        for (const frame of value.stacktrace?.frames ?? []) {
          if (!frame.filename || frame.context_line !== undefined || !isProjectFile(frame.filename)) continue;
          const lines = await linesOf(frame.filename);
          if (lines) addContextToFrame(lines, frame, CONTEXT_LINES);
        }
      }
      return event;
    },
  };
});

/**
 * A frame as a reader wants it: the file relative to the project (`src/app/pages/…`, from source as in the
 * binary, whose embedded source maps give these names), and in-app only for the project's own code (the
 * app's and Brisk's, wherever the app lives): never a dependency, Bun's internals or a compiled chunk.
 */
export function projectFrame(frame: StackFrame): StackFrame {
  let file = frame.filename;
  if (file && SOURCE_ROOT && file.startsWith(`${SOURCE_ROOT}/`)) file = relative(SOURCE_ROOT, file);
  return { ...frame, filename: file, in_app: file !== undefined && isProjectFile(file) };
}

/** A path relative to the project, outside its dependencies (absolute paths and `bun:` names are not). */
function isProjectFile(file: string): boolean {
  return !file.startsWith("/") && !file.startsWith("../") && !file.startsWith("node_modules/") && !file.includes(":");
}
