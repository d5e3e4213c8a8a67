// home.server.ts: the home page's loader: the list of the bench's pages. It reads nothing from the request,
// so the page is prerendered.
import { SITE } from "../site.ts";

export function homeLoader() {
  return { pages: SITE };
}
