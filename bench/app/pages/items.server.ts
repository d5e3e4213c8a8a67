// items.server.ts: the items page's loader: the 50 items (items.ts).
import { ITEMS } from "./items.ts";

export function itemsLoader() {
  return { items: ITEMS };
}
