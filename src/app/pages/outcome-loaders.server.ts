// outcome-loaders.server.ts: loaders of the examples that end before rendering anything of their own.
import { forbidden, notFound, redirect, unauthorized } from "brisk";

export const redirectLoader = () => redirect("/");
export const notFoundLoader = () => notFound();
export const forbiddenLoader = () => forbidden();
export const unauthorizedLoader = () => unauthorized();
export const serverErrorLoader = () => {
  throw new Error("Example failure in a loader (/examples/server-error)");
};
