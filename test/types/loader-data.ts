// loader-data.ts (type test, checked by `bun run typecheck`, never run): a loader typed for its route's
// params fits the route table, and useLoaderData<typeof loader> gives its data's type.
import { useLoaderData, useRouteLoaderData, type LoaderContext, type RouteDefinition } from "brisk";

function orderLoader({ params }: LoaderContext<{ id: string }>) {
  return { id: params.id, total: Number(params.id) * 2, history: Promise.resolve(["paid"]) };
}

export const routes: RouteDefinition[] = [{ path: "/orders/:id", component: Order, loader: orderLoader }];

function Order() {
  const data = useLoaderData<typeof orderLoader>();
  const id: string = data.id;
  const total: number = data.total;
  const history: Promise<string[]> = data.history;
  // @ts-expect-error: the data has no such field
  data.missing;
  // @ts-expect-error: total is a number
  const wrong: string = data.total;
  return id + total + String(history) + wrong;
}

export const badParams: RouteDefinition = {
  path: "/x/:n",
  component: Order,
  // @ts-expect-error: a loader's param is a string, never a number
  loader: ({ params }: LoaderContext<{ n: number }>) => params.n,
};

// Nested: a layout and its child, each reading its own data, the child the layout's by id.
async function accountLoader() {
  return { user: { name: "ada" } };
}

export const nested: RouteDefinition[] = [
  {
    path: "/account",
    id: "account",
    component: Layout,
    loader: accountLoader,
    children: [{ path: "orders/:id", component: Order, loader: orderLoader }],
  },
];

function Layout() {
  const { user } = useLoaderData<typeof accountLoader>();
  const name: string = user.name;
  return name;
}

export function OrderOfAccount() {
  const account = useRouteLoaderData<typeof accountLoader>("account");
  // @ts-expect-error: the route may not be on the page, so its data may be undefined
  const name: string = account.user.name;
  const known: string | undefined = account?.user.name;
  return name + known;
}

// A route without a page: its loader answers as it is.
export const feed: RouteDefinition = { path: "/feed.xml", loader: () => new Response("<rss/>") };
