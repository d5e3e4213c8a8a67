// Items.tsx: 50 items in a table, about 10 KB of HTML with their data: the page rendered for every request, by Brisk and by
// the reference alike.
import { useLoaderData } from "brisk";
import { Frame } from "./Frame.tsx";
import type { itemsLoader } from "./items.server.ts";

export function Items() {
  const { items } = useLoaderData<typeof itemsLoader>();
  return (
    <Frame title="Items">
      <p>{items.length} items, rendered for this request.</p>
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
    </Frame>
  );
}
