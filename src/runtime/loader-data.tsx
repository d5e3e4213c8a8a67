// loader-data.tsx: hands each route level its loader data, a named route's data to any level, and the action's
// value to the page.
import { createContext, useContext } from "react";
import type { ActionValue } from "./action-data.ts";
import { useAppRuntime } from "./app-context.ts";
import { useNavState } from "./navigation.ts";
import type { LevelPayload } from "./page-payload.ts";
import type { RouteDefinition } from "./route.ts";
import type { RouteData } from "./typed-route.ts";

/** The route level a component renders in: how deep, and its loader's data. */
export interface Level {
  depth: number;
  data: unknown;
}

export const LevelContext = createContext<Level | null>(null);

type LoaderValue<L extends (ctx: never) => unknown> = Awaited<ReturnType<L>>;

/** The loader data of the route this component renders in (its layout's inside a layout); pass `typeof loader` to get its type. */
export function useLoaderData<L extends (ctx: never) => unknown = () => unknown>(): LoaderValue<L> {
  return useContext(LevelContext)?.data as LoaderValue<L>;
}

/**
 * The loader data of a matched route by its id (`id` in the route table, else its full pattern): a layout's
 * data, the signed-in visitor say, read from a page below it or from the document. Undefined when that
 * route is not on the page.
 */
export function useRouteLoaderData<L extends (ctx: never) => unknown = () => unknown>(
  id: string,
): LoaderValue<L> | undefined {
  return useNavState().page.data.get(id) as LoaderValue<L> | undefined;
}

/**
 * The loader data of `route`, an object of the route table (`route()` gives it its loader's type): a layout's
 * data read by a page below it, with no id to spell and no `undefined` to check. The route must be on the page
 * (the component renders under it): anywhere else it throws, as a component that reads a layout it is not under
 * is a mistake of the app's.
 */
export function useRouteData<Route extends RouteDefinition>(route: Route): RouteData<Route> {
  const { page } = useNavState();
  return page.data.get(useLevelOf(route, "useRouteData").id) as RouteData<Route>;
}

/** The level of the page that `route` renders (a hook's, named by `hook` in what it throws): it must be on the page. */
export function useLevelOf(route: RouteDefinition, hook: string): LevelPayload {
  const node = useAppRuntime().tree.byRoute.get(route);
  const { page } = useNavState();
  if (!node) throw new Error(`${hook}: that route is not in the app's route table`);
  const level = page.payload.levels.find(({ id }) => id === node.id);
  if (!level) throw new Error(`${hook}: the route ${node.id} is not on this page`);
  return level;
}

/**
 * What the page's action returned, on the page rendered right after it (a failed validation: the errors and
 * the visitor's values), else undefined. Pass `typeof action` to get its type.
 */
export function useActionData<A extends (ctx: never) => unknown = () => unknown>(): ActionValue<A> | undefined {
  return useNavState().page.payload.actionData as ActionValue<A> | undefined;
}
