// session.server.ts: the items page behind a session: the loader reads the visitor's signed session cookie, as
// every page of a signed-in visitor does, and refuses a visitor without a valid one (401). The bench signs the
// cookie it sends with the same COOKIE_SECRET (bench/lib/session.ts); the reference checks it by hand.
import { unauthorized, type LoaderContext } from "brisk";
import { itemsLoader } from "./items.server.ts";

export const SESSION_COOKIE = "session";

export async function sessionItemsLoader({ cookies }: LoaderContext) {
  const user = await cookies.getSigned(SESSION_COOKIE);
  if (user === undefined) unauthorized();
  return { user, ...itemsLoader() };
}
