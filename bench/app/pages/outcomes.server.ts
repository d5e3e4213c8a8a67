// outcomes.server.ts: loaders that end the page other than with data, before the shell or after it: the soak
// asks for each under load (bench/soak.ts), and the Sentry outage counts the server error's events.
import { forbidden, notFound, redirect, unauthorized, type LoaderContext } from "brisk";
import { sleep } from "./sleep.ts";

export const redirectLoader = () => redirect("/");
export const notFoundLoader = () => notFound();
export const forbiddenLoader = () => forbidden();
export const unauthorizedLoader = () => unauthorized();
export const serverErrorLoader = () => {
  throw new Error("Bench failure in a loader (/server-error)");
};

export function lateErrorLoader({ signal }: LoaderContext) {
  return {
    section: sleep(100, signal).then((): string => {
      throw new Error("Bench failure in a streamed section (/late-error)");
    }),
  };
}

export function lateNotFoundLoader({ signal }: LoaderContext) {
  return { section: sleep(100, signal).then((): string => notFound()) };
}
