// SearchExample.route.ts: /examples/search's route, declared apart from its page so that the page (its pager, the
// hook that reads the search) is code-split: it loads with that page alone, off the other pages' critical path.
// The page reads its search by this object, typed by the schema.
import { lazyPage, route } from "brisk";
import { searchLoader, searchSchema } from "./SearchExample.server.ts";

export const searchRoute = route("/examples/search", {
  search: searchSchema,
  component: lazyPage("pages/SearchExample.tsx", () => import("./SearchExample.tsx")),
  loader: searchLoader,
});
