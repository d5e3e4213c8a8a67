// Items.tsx: 50 items in a table, about 10 KB of HTML with their data: the page rendered for every request, by Brisk and by
// the reference alike; and the same table in a partly prerendered page.
import { Suspense } from "react";
import { useLoaderData } from "brisk";
import { Frame } from "./Frame.tsx";
import { ITEMS, type Item } from "./items.ts";
import type { itemsLoader } from "./items.server.ts";
import type { shellItemsLoader } from "./shell-items.server.ts";
import type { sessionItemsLoader } from "./session.server.ts";

export function Items() {
  const { items } = useLoaderData<typeof itemsLoader>();
  return (
    <Frame title="Items">
      <p>{items.length} items, rendered for this request.</p>
      <ItemsTable items={items} />
    </Frame>
  );
}

/** The same page for a signed-in visitor: their name from the session cookie, then the same table. */
export function SessionItems() {
  const { user, items } = useLoaderData<typeof sessionItemsLoader>();
  return (
    <Frame title="Your items">
      <p>
        Signed in as {user}: {items.length} items, rendered for this request.
      </p>
      <ItemsTable items={items} />
    </Frame>
  );
}

/**
 * The table again, the same for every visitor, in a page marked `shell`: prerendered once when the server starts,
 * only the line that reads the request's data rendered per request (its <Suspense> is the hole).
 */
export function ShellItems() {
  return (
    <Frame title="Items, partly prerendered">
      <Suspense fallback={<p>{ITEMS.length} items.</p>}>
        <RequestLine />
      </Suspense>
      <ItemsTable items={ITEMS} />
    </Frame>
  );
}

function RequestLine() {
  const { requestedAt } = useLoaderData<typeof shellItemsLoader>();
  return (
    <p className="request-line">
      {ITEMS.length} items; this line rendered for the request of {requestedAt}.
    </p>
  );
}

function ItemsTable({ items }: { items: readonly Item[] }) {
  return (
    <table className="items">
      <thead>
        <tr>
          <th>#</th>
          <th>Item</th>
          <th>In stock</th>
          <th className="price">Price</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id} id={`item-${item.id}`}>
            <td>{item.id}</td>
            <td>{item.name}</td>
            <td>{item.stock > 0 ? `${item.stock} left` : "sold out"}</td>
            <td className="price">{item.price}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
