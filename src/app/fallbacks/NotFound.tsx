import { FallbackPage } from "./FallbackPage.tsx";

export function NotFound() {
  return (
    <FallbackPage code="404" title="Page not found">
      <p>There is no page at this address. It may have moved, or the link may be wrong.</p>
    </FallbackPage>
  );
}
