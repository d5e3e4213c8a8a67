// page-url.ts: the page's URL in parts, as React Router's useLocation() gives it. wouter's useLocation() has the
// path alone, and a return path or a link to share needs the search and the hash beside it.
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { useNavigation, useNavState } from "./navigation.ts";

/** The page's URL, its parts named and written as `location`'s are: `"?q=1"`, `"#top"`, each `""` when absent. */
export interface PageUrl {
  pathname: string;
  search: string;
  hash: string;
}

const currentHash = () => location.hash;
/** The browser never sends the hash: the server renders without it, and hydration starts from what it rendered. */
const noHash = () => "";

/** The page's path, search and hash; they change with each client navigation, and the hash with each hash change. */
export function useUrl(): PageUrl {
  const nav = useNavigation();
  const { path, search } = useNavState();
  // A navigation sets the URL before it commits the page; a hash alone moving, the browser announces.
  const subscribe = useCallback(
    (changed: () => void) => {
      const stop = nav.subscribe(changed);
      addEventListener("hashchange", changed);
      return () => {
        stop();
        removeEventListener("hashchange", changed);
      };
    },
    [nav],
  );
  const hash = useSyncExternalStore(subscribe, currentHash, noHash);
  return useMemo(() => ({ pathname: path, search: search && `?${search}`, hash }), [path, search, hash]);
}
