// loader-data.tsx: hands a route's loader data to its components.
import { createContext, useContext } from "react";

export const LoaderDataContext = createContext<unknown>(undefined);

/** The current route's loader data; pass `typeof loader` to get its type. */
export function useLoaderData<L extends (ctx: never) => unknown = () => unknown>(): Awaited<ReturnType<L>> {
  return useContext(LoaderDataContext) as Awaited<ReturnType<L>>;
}
