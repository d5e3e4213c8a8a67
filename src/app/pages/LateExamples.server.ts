// LateExamples.server.ts: loaders whose streamed value fails or ends the page after the shell has gone out.
import { notFound, type LoaderContext } from "brisk";
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
