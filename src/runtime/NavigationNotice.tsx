// NavigationNotice.tsx: tells the visitor a navigation failed to reach the server, and offers a retry.
import { useNavState } from "./navigation.ts";

export function NavigationNotice() {
  const { failedNavigation } = useNavState();
  if (!failedNavigation) return null;
  return (
    <div className="navigation-notice" role="alert">
      Could not load the page. Check your connection.{" "}
      <button type="button" onClick={failedNavigation.retry}>
        Retry
      </button>
    </div>
  );
}
