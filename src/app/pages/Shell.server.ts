// Shell.server.ts: the partial-prerendering example's loader: who is signed in, read from the session per request.
import type { LoaderContext } from "brisk";
import { sessions } from "../sessions.server.ts";

export async function shellLoader({ cookies }: LoaderContext) {
  const session = await sessions.getSession(cookies);
  return { name: session.get("user")?.name ?? null };
}
