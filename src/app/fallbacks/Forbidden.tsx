import { FallbackPage } from "./FallbackPage.tsx";

export function Forbidden() {
  return (
    <FallbackPage code="403" title="Forbidden">
      <p>You are signed in, but this page is not yours to see.</p>
    </FallbackPage>
  );
}
