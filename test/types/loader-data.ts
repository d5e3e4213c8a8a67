// loader-data.ts (type test, checked by `bun run typecheck`, never run): a loader typed for its route's
// params fits the route table, and useLoaderData<typeof loader> gives its data's type.
import { useLoaderData, type LoaderContext, type RouteDefinition } from "brisk";

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

// @ts-expect-error: a loader's param is a string, never a number
export const badParams: RouteDefinition = { path: "/x/:n", component: Order, loader: ({ params }: LoaderContext<{ n: number }>) => params.n };
