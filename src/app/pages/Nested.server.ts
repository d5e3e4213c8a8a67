// Nested.server.ts: the loaders of /examples/nested: the layout's (who is signed in, how often it has run) and
// its children's. Brisk runs the layout's and the child's side by side, each with its own pattern's params.
import { notFound, redirect, type LoaderContext } from "brisk";
import { sessions } from "../sessions.server.ts";
import { sleep } from "./sleep.ts";

/** How long each of /examples/nested/slow's two loaders waits: together they still cost it once. */
const SLOW_MS = 300;
const SLOW_PATH = "/examples/nested/slow";

/** Runs of the layout's loader in this process: it stays the same while a visitor moves between the children. */
let layoutLoads = 0;
/** Bumps in this process, shown by the layout: after a bump the layout's loader runs again, as after any action. */
let bumps = 0;

export async function nestedLoader({ cookies, url, signal }: LoaderContext) {
  layoutLoads += 1;
  const loads = layoutLoads;
  // The session /examples/session signs in; a forged cookie is nobody.
  const name = (await sessions.getSession(cookies)).get("user")?.name ?? null;
  if (url.pathname === SLOW_PATH) await sleep(SLOW_MS, signal);
  return { loads, name, bumps };
}

/** The catalogue of this example: items 1 to 100; anything else (404 included) is not found. */
export function itemLoader({ params }: LoaderContext<{ id: string }>) {
  const id = /^[1-9]\d*$/.test(params.id) ? Number(params.id) : 0;
  if (id < 1 || id > 100) notFound();
  return { id };
}

export function brokenLoader(): never {
  throw new Error("Example failure in a nested route's loader (/examples/nested/broken)");
}

export async function slowLoader({ signal }: LoaderContext) {
  const started = Date.now();
  await sleep(SLOW_MS, signal);
  return { waited: Date.now() - started };
}

/** A route without a page: one more bump, then back to the layout (303): the way a form posted to it also works without JavaScript. */
export function bumpAction(): never {
  bumps += 1;
  redirect("/examples/nested");
}
