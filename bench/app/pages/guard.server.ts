// guard.server.ts: the items page behind a guard middleware: the same check as session.server.ts's loader (a valid
// signed session cookie, else 401), made by a middleware that puts the visitor in the request context, where the
// loader reads it. Against /session/items it is what the middleware itself costs.
import { createRouterContext, unauthorized, type LoaderContext, type Middleware } from "brisk";
import { itemsLoader } from "./items.server.ts";
import { SESSION_COOKIE } from "./session.server.ts";

const userContext = createRouterContext<string>();

export const signedIn: Middleware = async ({ cookies, context }) => {
  const user = await cookies.getSigned(SESSION_COOKIE);
  if (user === undefined) unauthorized();
  context.set(userContext, user);
};

export function guardedItemsLoader({ context }: LoaderContext) {
  return { user: context.get(userContext), ...itemsLoader() };
}
