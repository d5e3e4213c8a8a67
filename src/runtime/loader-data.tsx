// loader-data.tsx: hands a route's loader data, and its action's answer, to its components.
import { createContext, useContext } from "react";
import type { ActionValue } from "./action-data.ts";
import { useNavState } from "./navigation.ts";

export const LoaderDataContext = createContext<unknown>(undefined);

/** The current route's loader data; pass `typeof loader` to get its type. */
export function useLoaderData<L extends (ctx: never) => unknown = () => unknown>(): Awaited<ReturnType<L>> {
  return useContext(LoaderDataContext) as Awaited<ReturnType<L>>;
}

/**
 * What the page's action returned, on the page rendered right after it (a failed validation: the errors and
 * the visitor's values), else undefined. Pass `typeof action` to get its type.
 */
export function useActionData<A extends (ctx: never) => unknown = () => unknown>(): ActionValue<A> | undefined {
  return useNavState().page.payload.actionData as ActionValue<A> | undefined;
}
