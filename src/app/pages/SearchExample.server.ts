// SearchExample.server.ts: the search example's schema and loader: a catalogue searched by `q`, sorted by `sort`,
// a page of it at a time. The server parses the search; the browser never loads this module.
import type { LoaderContext } from "brisk";
import { t, type Static } from "elysia";

/**
 * What the page reads from its URL. `page` is a number from 1, page 1 when missing or invalid (`?page=abc`,
 * `?page=0`); `sort` is optional with no default, so `?sort=bogus` is a 400 naming it.
 */
export const searchSchema = t.Object({
  q: t.String({ default: "" }),
  page: t.Integer({ minimum: 1, default: 1 }),
  sort: t.Optional(t.Union([t.Literal("new"), t.Literal("old")])),
});

const PAGE_SIZE = 5;

/** The catalogue, in the order its items were added. */
const CATALOGUE = [
  "Oak desk",
  "Desk lamp",
  "Reading lamp",
  "Armchair",
  "Office chair",
  "Bookshelf",
  "Floor lamp",
  "Side table",
  "Dining chair",
  "Coffee table",
  "Wall shelf",
  "Bar stool",
  "Standing desk",
  "Pendant lamp",
  "Footstool",
];

export function searchLoader({ query }: LoaderContext<Record<string, string>, Static<typeof searchSchema>>) {
  const needle = query.q.trim().toLowerCase();
  const found = CATALOGUE.filter((item) => item.toLowerCase().includes(needle));
  if (query.sort === "new") found.reverse();
  const start = (query.page - 1) * PAGE_SIZE;
  const pages = Math.max(1, Math.ceil(found.length / PAGE_SIZE));
  return { q: query.q, results: found.slice(start, start + PAGE_SIZE), first: start + 1, total: found.length, pages };
}
