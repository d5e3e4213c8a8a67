// typed-location.ts: wouter's `useLocation`, which Brisk's navigation drives, with `navigate` taking a path of the
// app's route table (route-paths.ts): a path no route answers is a type error, as for `<Link to>`.
import { useLocation as useRouterLocation } from "wouter";
import type { CheckedHref } from "./route-paths.ts";

/** A client navigation to `to`: a new history entry, or the current one's place with `replace`. */
export type Navigate = <const To extends string>(to: CheckedHref<To>, options?: { replace?: boolean }) => void;

/** `[path, navigate]`: the current path (without its search), and the function that moves to another page. */
export const useLocation: () => [path: string, navigate: Navigate] = useRouterLocation as () => [string, Navigate];
